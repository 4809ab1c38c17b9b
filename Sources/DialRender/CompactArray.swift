extension Array {
    /// The same elements in storage of their own size. An array grown by appends keeps up to
    /// twice the storage its elements need (its capacity doubles as it grows), and the masks and
    /// sprites a painter caches are built that way and then kept for the kiosk's lifetime (the
    /// caches' bounds count their elements, not that spare storage).
    func compacted() -> [Element] {
        guard capacity > count + count / 16 + 16 else { return self }
        return [Element](unsafeUninitializedCapacity: count) { storage, initialized in
            initialized = storage.initialize(from: self).1
        }
    }
}
