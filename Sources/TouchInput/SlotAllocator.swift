/// Hands out the smallest free slot number to each (device, device slot) pair, so the first
/// finger on any touchscreen, or the mouse, is slot 0 whatever the device's own numbering.
struct SlotAllocator: Sendable {
    struct Key: Hashable, Sendable {
        var device: InputDeviceID
        var slot: Int
    }
    private var taken: [Key: Int] = [:]

    mutating func acquire(_ key: Key) -> Int {
        if let slot = taken[key] { return slot }
        let used = Set(taken.values)
        var slot = 0
        while used.contains(slot) { slot += 1 }
        taken[key] = slot
        return slot
    }

    func lookup(_ key: Key) -> Int? { taken[key] }

    mutating func release(_ key: Key) -> Int? { taken.removeValue(forKey: key) }

    /// Every pair of `device` still held, in slot order.
    func held(by device: InputDeviceID) -> [(key: Key, slot: Int)] {
        taken.filter { $0.key.device == device }.map { ($0.key, $0.value) }.sorted { $0.slot < $1.slot }
    }
}
