import KioskSeams

/// The PIN ring: a mode of the dial that enters digits the way a safe's dial does. Twelve
/// slots, one detent each: the digits 0-9, delete and OK. Turning (a finger around the hub, a
/// wheel, an encoder, the arrow keys) brings a slot to 12 o'clock; a tap on the hub (or Enter, or
/// an encoder's press) presses it. A digit key enters its digit at once and brings OK to the
/// top, so a key pad's Enter submits; Backspace deletes (and, with nothing entered, closes the
/// ring, as Escape does); a long press on the hub closes it.
///
/// The digits entered are kept only here. What comes out is how many there are (the hub shows
/// one dot per digit) and, on OK, a `PINEntry`, which never prints its digits. No event and no
/// pose says which digit was pressed or which slot is at the top, except the pose's `selected`
/// that the painter needs. Pure: time is an argument.
public struct PINRing: Sendable, Equatable {
    /// One slot of the ring.
    public enum Slot: Sendable, Equatable {
        case digit(Int)
        case delete
        case ok
    }

    /// The ring's slots in clockwise order from 12 o'clock at rest: 0-9, delete, OK.
    public static let slots: [Slot] = (0...9).map { Slot.digit($0) } + [.delete, .ok]
    public static let deleteSlot = 10
    public static let okSlot = 11
    /// One slot per detent: a finger turning 30 degrees moves the ring by one slot, with it.
    public static let detentDegrees = 360.0 / Double(slots.count)

    /// Whether the ring is open.
    public private(set) var isOpen = false
    /// The slot at 12 o'clock (an index of `slots`).
    public private(set) var selected = 0
    /// How many digits the PIN has, when the lock knows it ("digit 3 of 4"); nil: unknown.
    public private(set) var length: Int?
    private var digits: [UInt8] = []
    private var drag = ValueDrag()

    public init() {}

    /// How many digits are entered (what the hub's dots show).
    public var count: Int { digits.count }

    /// What the painter shows; nil while closed.
    public var pose: PINRingPose? {
        isOpen ? PINRingPose(selected: selected, count: digits.count, length: length) : nil
    }

    /// Opens the ring with nothing entered and digit 0 at the top. `length`: the PIN's number of
    /// digits if known; `geometry`: where the ring is, for the finger.
    public mutating func open(length: Int?, geometry: DialGeometry, gestures: GestureSettings, at time: Double) -> [PINRingEvent] {
        isOpen = true
        selected = 0
        self.length = length.map { min(max($0, PINRules.digits.lowerBound), PINRules.digits.upperBound) }
        digits = []
        drag = ValueDrag(geometry: geometry, gestures: gestures, detentDegrees: Self.detentDegrees)
        return [.opened(time: time)]
    }

    /// Closes the ring and forgets what was entered; nothing when it is closed.
    public mutating func close(at time: Double) -> [PINRingEvent] {
        guard isOpen else { return [] }
        self = PINRing()
        return [.closed(time: time)]
    }

    /// Input while the ring is open; nil when it is not the ring's (the ring is closed, or a
    /// speech key, which the service takes).
    public mutating func input(_ event: InputEvent) -> [PINRingEvent]? {
        guard isOpen else { return nil }
        switch event {
        case .command(.step(let n), let t): return turn(n, at: t)
        case .command(.first, let t): return turn(-selected, at: t)
        case .command(.activate, let t): return press(at: t)
        case .command(.digit(let d), let t): return enter(d, at: t)
        case .command(.back, let t): return digits.isEmpty ? close(at: t) : delete(at: t)
        case .command(.speech, _): return nil
        case .touch(let touch):
            guard let geometry = drag.geometry else { return [] }
            switch drag.feed(touch, center: geometry.center, hubRadius: geometry.hubRadius) {
            case .none: return []
            // The ring turns with the finger: clockwise brings the slot before the top to it.
            case .detents(let n): return turn(-n, at: touch.time)
            case .tap: return press(at: touch.time)
            case .longPress: return close(at: touch.time)
            }
        }
    }

    /// Turns the ring by `n` slots (positive: the next slot clockwise comes to the top).
    public mutating func turn(_ n: Int, at time: Double) -> [PINRingEvent] {
        guard isOpen, n != 0 else { return [] }
        let count = Self.slots.count
        selected = ((selected + n) % count + count) % count
        return [.moved(time: time)]
    }

    /// Presses the slot at the top.
    public mutating func press(at time: Double) -> [PINRingEvent] {
        guard isOpen else { return [] }
        switch Self.slots[selected] {
        case .digit(let d): return add(d, at: time)
        case .delete: return delete(at: time)
        case .ok: return submit(at: time)
        }
    }

    /// A digit key: the digit, and OK to the top so that Enter submits.
    public mutating func enter(_ digit: Int, at time: Double) -> [PINRingEvent] {
        guard isOpen, (0...9).contains(digit) else { return [] }
        let out = add(digit, at: time)
        selected = Self.okSlot
        return out
    }

    /// Removes the last digit; nothing when none is entered.
    public mutating func delete(at time: Double) -> [PINRingEvent] {
        guard isOpen, !digits.isEmpty else { return [] }
        digits.removeLast()
        return [.deleted(count: digits.count, time: time)]
    }

    /// OK: the digits as a `PINEntry` when there are enough, and the ring empty again for the
    /// next try (the lock decides whether it closes).
    public mutating func submit(at time: Double) -> [PINRingEvent] {
        guard isOpen else { return [] }
        guard digits.count >= PINRules.digits.lowerBound else { return [.tooShort(count: digits.count, time: time)] }
        let entry = PINEntry(digits: digits)
        digits = []
        return [.submitted(entry, time: time)]
    }

    private mutating func add(_ digit: Int, at time: Double) -> [PINRingEvent] {
        guard digits.count < PINRules.digits.upperBound else { return [.full(time: time)] }
        digits.append(UInt8(digit))
        return [.digit(count: digits.count, of: length, time: time)]
    }
}

/// What the PIN ring shows: which slot is at the top, and how many dots the hub has.
public struct PINRingPose: Sendable, Equatable {
    public var selected: Int
    public var count: Int
    public var length: Int?

    public init(selected: Int, count: Int, length: Int? = nil) {
        self.selected = selected
        self.count = count
        self.length = length
    }
}

/// What the PIN ring reports. None carries a digit: a `submitted` entry holds them, and it
/// never prints them.
public enum PINRingEvent: Sendable, Equatable {
    case opened(time: Double)
    case closed(time: Double)
    /// The ring turned to another slot (which one is not said: speech would tell the digit).
    case moved(time: Double)
    /// Digit number `count` was entered ("digit 3 of 4"; `of`: the PIN's length if known).
    case digit(count: Int, of: Int?, time: Double)
    /// The last digit was removed; `count` remain.
    case deleted(count: Int, time: Double)
    /// A digit past the longest PIN was refused.
    case full(time: Double)
    /// OK with fewer digits than the shortest PIN: nothing was tried.
    case tooShort(count: Int, time: Double)
    /// OK: the digits to check.
    case submitted(PINEntry, time: Double)

    public var time: Double {
        switch self {
        case .opened(let t), .closed(let t), .moved(let t), .full(let t): t
        case .digit(_, _, let t), .deleted(_, let t), .tooShort(_, let t), .submitted(_, let t): t
        }
    }
}

/// How long a PIN may be: the one rule `set-pin` and the ring keep.
public enum PINRules {
    public static let digits = 4...12

    /// Why `text` is no PIN (empty, a character other than 0-9, too short or too long); nil: it is one.
    public static func problem(_ bytes: [UInt8]) -> Problem? {
        if bytes.isEmpty { return .empty }
        if bytes.contains(where: { !(0x30...0x39).contains($0) }) { return .notDigits }
        if bytes.count < digits.lowerBound { return .tooShort }
        if bytes.count > digits.upperBound { return .tooLong }
        return nil
    }

    /// Why a PIN was refused, in words.
    public enum Problem: Sendable, Equatable, CustomStringConvertible {
        case empty, notDigits, tooShort, tooLong

        public var description: String {
            switch self {
            case .empty: "the PIN is empty"
            case .notDigits: "a PIN is digits 0-9 only"
            case .tooShort: "a PIN has at least \(PINRules.digits.lowerBound) digits"
            case .tooLong: "a PIN has at most \(PINRules.digits.upperBound) digits"
            }
        }
    }
}

/// The digits of one PIN entry, to be checked against the PIN's hash and then dropped. It
/// prints as "PINEntry(4 digits)" however it is printed (interpolation, `print`, `dump`,
/// `debugPrint`), so an event or a log line that carries one by mistake still shows no digit.
public struct PINEntry: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    private let digits: [UInt8]

    public init(digits: [UInt8]) { self.digits = digits }

    /// The entry as the ASCII bytes the hash is made over ("1234" is 0x31 0x32 0x33 0x34).
    public init?(ascii: [UInt8]) {
        guard PINRules.problem(ascii) == nil else { return nil }
        digits = ascii.map { $0 - 0x30 }
    }

    public var count: Int { digits.count }

    /// Runs `body` with the ASCII digits (for the hash); nothing else reads them.
    public func withASCII<R, E: Error>(_ body: ([UInt8]) throws(E) -> R) throws(E) -> R {
        try body(digits.map { $0 + 0x30 })
    }

    public var description: String { "PINEntry(\(digits.count) digits)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["count": digits.count]) }
}

extension PINRing: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    // The ring itself holds the digits: printed or dumped, it shows how many, never which.
    public var description: String {
        "PINRing(open: \(isOpen), selected: \(selected), count: \(digits.count), length: \(length.map(String.init) ?? "nil"))"
    }
    public var debugDescription: String { description }
    public var customMirror: Mirror {
        Mirror(self, children: ["isOpen": isOpen, "selected": selected, "count": digits.count, "length": length as Any])
    }
}
