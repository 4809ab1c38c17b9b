/// Whether glibc can use the time zone the process is given, decided as glibc decides it, so an
/// unusable zone is said rather than silently run on UTC: with `TZ` unset, the file
/// /etc/localtime; with `TZ` set, a leading ':' dropped, the zone file it names (absolute, or
/// under `TZDIR`, by default /usr/share/zoneinfo), and when there is none, the text read as a
/// POSIX TZ string ("CET-1CEST,M3.5.0,M10.5.0/3"). Anything else glibc takes as UTC without a
/// word. An empty `TZ` is glibc's spelling of UTC and is no problem.
///
/// Pure: the file system comes in as `head`, the first bytes of a file (nil: it cannot be read).
package enum ZoneCheck {
    package static let defaultDirectory = "/usr/share/zoneinfo"
    package static let defaultFile = "/etc/localtime"

    /// What is wrong with the zone `tz` gives (nil: glibc can use it), and that UTC is used instead.
    package static func problem(tz: String?, tzdir: String?, head: (String) -> [UInt8]?) -> String? {
        guard let tz else {
            switch zoneFile(defaultFile, head: head) {
            case .zone: return nil
            case .missing: return "TZ is not set and \(defaultFile) cannot be read; the opening hours run on UTC"
            case .notAZone: return "TZ is not set and \(defaultFile) is not a zone file; the opening hours run on UTC"
            }
        }
        if tz.isEmpty { return nil }
        let name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
        let shown = "TZ '\(String(tz.prefix(64)))'"
        let path = name.hasPrefix("/") ? name : (tzdir.flatMap { $0.isEmpty ? nil : $0 } ?? defaultDirectory) + "/" + name
        let file = name.isEmpty ? .missing : zoneFile(path, head: head)
        if file == .zone { return nil }
        let why = file == .notAZone ? "\(path) is not a zone file" : "no zone file \(path)"
        switch posixVerdict(name) {
        case .valid:
            return nil
        case .invalid:
            return "\(shown): \(why), and it is not a POSIX TZ string (such as CET-1CEST,M3.5.0,M10.5.0/3); "
                + "the opening hours run on UTC"
        case .brokenAfter(let start):
            // glibc keeps the offset of a readable start and makes what it can of the rest
            // ("CET-1CEST,garbage" is +02:00 all year).
            return "\(shown): \(why), and only its start '\(start)' reads as a POSIX TZ string (such as "
                + "CET-1CEST,M3.5.0,M10.5.0/3); the opening hours run on that start's UTC offset, with whatever "
                + "daylight saving glibc guesses from the rest"
        }
    }

    /// How far a TZ value reads as POSIX's rule.
    package enum POSIXVerdict: Equatable, Sendable {
        case valid
        /// Not even a zone name and offset: glibc uses UTC.
        case invalid
        /// A zone name and offset (`start`), then something else.
        case brokenAfter(String)
    }

    package static func posixVerdict(_ text: String) -> POSIXVerdict {
        var scanner = RuleScanner(Array(text.utf8))
        if scanner.rule() { return .valid }
        guard let end = scanner.standardEnd else { return .invalid }
        return .brokenAfter(String(decoding: scanner.bytes[0..<end], as: UTF8.self))
    }

    enum FileVerdict { case zone, missing, notAZone }

    /// A zone file starts with the magic "TZif" (RFC 8536).
    static func zoneFile(_ path: String, head: (String) -> [UInt8]?) -> FileVerdict {
        guard let bytes = head(path) else { return .missing }
        return bytes.starts(with: Array("TZif".utf8)) ? .zone : .notAZone
    }

    /// POSIX's TZ rule (XBD 8.3): `std offset [dst [offset] [,start[/time],end[/time]]]`; names
    /// of three or more letters or `<...>` quoted, offsets `[+-]hh[:mm[:ss]]`, dates `Jn`, `n`
    /// or `Mm.w.d`. glibc reads the same grammar (its hours going up to 24, rule times to 167).
    package static func isPOSIXRule(_ text: String) -> Bool { posixVerdict(text) == .valid }
}

/// A one-pass reader of the POSIX TZ grammar over bytes.
struct RuleScanner {
    let bytes: [UInt8]
    var at = 0
    /// Where the standard zone's name and offset end, once they read.
    var standardEnd: Int?

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var peek: UInt8? { at < bytes.count ? bytes[at] : nil }

    mutating func take(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        at += 1
        return true
    }

    mutating func rule() -> Bool {
        guard name(), offset(maxHours: 24) else { return false }
        standardEnd = at
        if peek == nil { return true }
        guard name() else { return false }
        if peek != nil && peek != UInt8(ascii: ",") { guard offset(maxHours: 24) else { return false } }
        if peek == nil { return true }
        guard take(UInt8(ascii: ",")), date(), take(UInt8(ascii: ",")), date() else { return false }
        return peek == nil
    }

    /// Three or more letters, or `<` three or more letters, digits, '+' or '-' `>`.
    mutating func name() -> Bool {
        func letter(_ b: UInt8) -> Bool { (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") }
        let start = at
        if take(UInt8(ascii: "<")) {
            while let b = peek, letter(b) || isDigit(b) || b == UInt8(ascii: "+") || b == UInt8(ascii: "-") { at += 1 }
            let count = at - start - 1
            return take(UInt8(ascii: ">")) && count >= 3
        }
        while let b = peek, letter(b) { at += 1 }
        return at - start >= 3
    }

    func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    /// One to `digits` decimal digits as a number; nil when there is none.
    mutating func number(digits: Int) -> Int? {
        var value = 0, count = 0
        while count < digits, let b = peek, isDigit(b) {
            value = value * 10 + Int(b - UInt8(ascii: "0"))
            at += 1
            count += 1
        }
        return count == 0 ? nil : value
    }

    /// `[+-]hh[:mm[:ss]]`, hours at most `maxHours`, minutes and seconds below 60.
    mutating func offset(maxHours: Int) -> Bool {
        _ = take(UInt8(ascii: "+")) || take(UInt8(ascii: "-"))
        guard let hours = number(digits: 3), hours <= maxHours else { return false }
        for _ in 0..<2 {
            guard take(UInt8(ascii: ":")) else { break }
            guard let part = number(digits: 2), part < 60 else { return false }
        }
        return true
    }

    /// `Jn` (1...365), `n` (0...365) or `Mm.w.d`, then an optional `/time`.
    mutating func date() -> Bool {
        if take(UInt8(ascii: "J")) {
            guard let day = number(digits: 3), (1...365).contains(day) else { return false }
        } else if take(UInt8(ascii: "M")) {
            guard let month = number(digits: 2), (1...12).contains(month), take(UInt8(ascii: ".")),
                  let week = number(digits: 1), (1...5).contains(week), take(UInt8(ascii: ".")),
                  let day = number(digits: 1), day <= 6 else { return false }
        } else {
            guard let day = number(digits: 3), day <= 365 else { return false }
        }
        if take(UInt8(ascii: "/")) { return offset(maxHours: 167) }
        return true
    }
}
