/// The newest `capacity` values in fixed memory: once full, each new value replaces the oldest.
/// Order is not kept (the users take a maximum or sort).
public struct RecentValues: Sendable, Equatable {
    public let capacity: Int
    public private(set) var values: [Double] = []
    /// Where the next value goes once full (the oldest one).
    private var next = 0

    public init(capacity: Int) {
        self.capacity = Swift.max(1, capacity)
        values.reserveCapacity(self.capacity)
    }

    public mutating func append(_ value: Double) {
        if values.count < capacity {
            values.append(value)
        } else {
            values[next] = value
            next = (next + 1) % capacity
        }
    }

    /// Forgets every value (keeps the memory).
    public mutating func removeAll() {
        values.removeAll(keepingCapacity: true)
        next = 0
    }
}
