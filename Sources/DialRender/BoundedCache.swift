/// A cache bounded by the bytes its values hold: adding a value that would pass the bound drops
/// the least recently used ones first, so a kiosk that spins for months holds what its last
/// spins drew and never more than the bound. A value larger than the whole bound is not kept.
struct BoundedCache<Key: Hashable, Value> {
    /// Bytes the values may hold together; lowering it drops the least recently used values.
    var bound: Int {
        didSet { trim(to: bound) }
    }
    private let size: (Value) -> Int
    private var entries: [Key: Entry] = [:]
    /// Bytes the values hold now.
    private(set) var bytes = 0
    /// Values dropped to stay within the bound.
    private(set) var evictedCount = 0
    /// Counts uses, for the least recently used order.
    private var clock: UInt64 = 0

    private struct Entry {
        let value: Value
        let bytes: Int
        var used: UInt64
    }

    /// A cache of at most `bound` bytes, `size` giving the bytes of one value.
    init(bound: Int, size: @escaping (Value) -> Int) {
        self.bound = bound
        self.size = size
    }

    /// The value of `key`, marked as just used.
    mutating func get(_ key: Key) -> Value? {
        guard let value = entries[key]?.value else { return nil }
        clock &+= 1
        entries[key]!.used = clock
        return value
    }

    /// Whether `key` is cached, without marking it used.
    func contains(_ key: Key) -> Bool { entries[key] != nil }

    /// Bytes `value` would take in this cache.
    func bytes(of value: Value) -> Int { size(value) }

    /// Adds `value` as just used, first dropping the least recently used values while it would
    /// not fit.
    mutating func insert(_ value: Value, for key: Key) {
        let b = size(value)
        if let old = entries.removeValue(forKey: key) { bytes -= old.bytes }
        guard b <= bound else { return }
        while bytes + b > bound, let oldest = entries.min(by: { $0.value.used < $1.value.used }) {
            bytes -= oldest.value.bytes
            entries[oldest.key] = nil
            evictedCount += 1
        }
        clock &+= 1
        entries[key] = Entry(value: value, bytes: b, used: clock)
        bytes += b
    }

    private mutating func trim(to limit: Int) {
        while bytes > limit, let oldest = entries.min(by: { $0.value.used < $1.value.used }) {
            bytes -= oldest.value.bytes
            entries[oldest.key] = nil
            evictedCount += 1
        }
    }

    /// Bytes held by the values whose keys fail `keep`: what adding values for kept keys may drop.
    func bytes(notKept keep: (Key) -> Bool) -> Int {
        entries.reduce(0) { keep($1.key) ? $0 : $0 + $1.value.bytes }
    }

    var count: Int { entries.count }

    mutating func removeAll() {
        entries.removeAll()
        bytes = 0
    }
}
