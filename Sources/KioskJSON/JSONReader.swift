/// The one JSON reader for what arrives from outside (RFC 8259, strict): one value, white space
/// around it, nothing after it. Objects, arrays, strings with every escape (a surrogate pair
/// from two `\u` escapes, a lone surrogate refused), numbers by the grammar (no leading zeros,
/// `+`, `.5`, NaN or Infinity), `true`, `false`, `null`; the input must be UTF-8 (no BOM).
///
/// Hostile input costs linear time and memory: the size is checked before the first byte is
/// read, each byte is looked at a bounded number of times, and nesting is an explicit stack
/// bounded by `JSONLimits.maximumDepth`, so no input recurses.
package enum JSONReader {
    /// The value `bytes` hold, or where and why they are not JSON.
    package static func parse(_ bytes: [UInt8], limits: JSONLimits = .standard) -> Result<JSONValue, JSONError> {
        bytes.withUnsafeBufferPointer { parse(buffer: $0, limits: limits) }
    }

    package static func parse(_ bytes: ArraySlice<UInt8>, limits: JSONLimits = .standard) -> Result<JSONValue, JSONError> {
        bytes.withUnsafeBufferPointer { parse(buffer: $0, limits: limits) }
    }

    package static func parse(_ text: String, limits: JSONLimits = .standard) -> Result<JSONValue, JSONError> {
        parse(Array(text.utf8), limits: limits)
    }

    static func parse(buffer: UnsafeBufferPointer<UInt8>, limits: JSONLimits) -> Result<JSONValue, JSONError> {
        guard buffer.count <= limits.maximumBytes else {
            return .failure(JSONError(offset: limits.maximumBytes, "input of \(buffer.count) bytes, more than \(limits.maximumBytes)"))
        }
        var scanner = JSONScanner(buffer, maximumDepth: limits.maximumDepth)
        do {
            return .success(try scanner.document())
        } catch let error as JSONError {
            return .failure(error)
        } catch {
            return .failure(JSONError(offset: scanner.i, "\(error)"))
        }
    }
}

struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    var i = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    var atEnd: Bool { i >= bytes.count }
    var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

    func fail(_ message: String, at offset: Int? = nil) -> JSONError {
        JSONError(offset: offset ?? i, message)
    }

    /// The byte at the cursor as a message shows it.
    var here: String {
        guard let b = peek else { return "the end" }
        return Self.describe(b)
    }

    static func describe(_ b: UInt8) -> String {
        if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        let digits = String(b, radix: 16, uppercase: true)
        return "byte 0x" + (digits.count == 1 ? "0" + digits : digits)
    }

    mutating func skipSpace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return
            }
        }
    }

    mutating func document() throws -> JSONValue {
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
            throw fail("a byte order mark (JSON text has none)", at: 0)
        }
        let value = try nested()
        skipSpace()
        guard atEnd else { throw fail("\(here) after the value (one JSON value only)") }
        return value
    }

    /// One value with whatever it holds, containers on an explicit stack. Each open level's
    /// members are appended in place (`arrays[last]`, `objects[last]`), never through a copy of
    /// the level, so every value is moved a bounded number of times.
    mutating func nested() throws -> JSONValue {
        var open: [Bool] = []  // per open level: an object (true) or an array
        var arrays: [[JSONValue]] = []
        var objects: [[JSONMember]] = []
        var keys: [String] = []
        while true {
            // Expecting a value.
            skipSpace()
            var value: JSONValue
            switch peek {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard open.count < maximumDepth else {
                    throw fail("nested deeper than \(maximumDepth) arrays and objects")
                }
                let opensObject = bytes[i] == UInt8(ascii: "{")
                i += 1
                skipSpace()
                if opensObject {
                    if peek == UInt8(ascii: "}") {
                        i += 1
                        value = .object(JSONObject([]))
                    } else {
                        keys.append(try memberKey())
                        objects.append([])
                        open.append(true)
                        continue
                    }
                } else {
                    if peek == UInt8(ascii: "]") {
                        i += 1
                        value = .array([])
                    } else {
                        arrays.append([])
                        open.append(false)
                        continue
                    }
                }
            default:
                value = try scalar()
            }
            // A value is complete: it goes into the level it is in, which it may close.
            while true {
                guard let isObject = open.last else { return value }
                skipSpace()
                if isObject {
                    objects[objects.count - 1].append(JSONMember(key: keys.removeLast(), value: value))
                    if peek == UInt8(ascii: ",") {
                        i += 1
                        skipSpace()
                        keys.append(try memberKey())
                        break
                    } else if peek == UInt8(ascii: "}") {
                        i += 1
                        open.removeLast()
                        value = .object(JSONObject(objects.removeLast()))
                    } else {
                        throw fail("expected ',' or '}' in an object, got \(here)")
                    }
                } else {
                    arrays[arrays.count - 1].append(value)
                    if peek == UInt8(ascii: ",") {
                        i += 1
                        break
                    } else if peek == UInt8(ascii: "]") {
                        i += 1
                        open.removeLast()
                        value = .array(arrays.removeLast())
                    } else {
                        throw fail("expected ',' or ']' in an array, got \(here)")
                    }
                }
            }
        }
    }

    /// `"name" :` with the space around the colon.
    mutating func memberKey() throws -> String {
        guard peek == UInt8(ascii: "\"") else { throw fail("expected a string key in an object, got \(here)") }
        let key = try string()
        skipSpace()
        guard peek == UInt8(ascii: ":") else { throw fail("expected ':' after an object key, got \(here)") }
        i += 1
        return key
    }

    mutating func scalar() throws -> JSONValue {
        guard let b = peek else { throw fail("expected a value, got the end") }
        switch b {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw fail("expected a value, got \(here)")
        }
    }

    mutating func literal(_ word: StaticString) throws {
        let start = i
        let count = word.utf8CodeUnitCount
        var k = 0
        while k < count {
            guard i < bytes.count, bytes[i] == word.utf8Start[k] else {
                throw fail("expected \(word), got \(here)", at: start)
            }
            i += 1
            k += 1
        }
    }

    mutating func digits() -> Int {
        let from = i
        while let b = peek, b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") { i += 1 }
        return i - from
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    mutating func number() throws -> JSONNumber {
        let start = i
        if peek == UInt8(ascii: "-") { i += 1 }
        if peek == UInt8(ascii: "0") {
            i += 1
            if let b = peek, b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") { throw fail("a number with a leading zero") }
        } else if digits() == 0 {
            throw fail("expected a digit in a number, got \(here)")
        }
        if peek == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { throw fail("expected a digit after the decimal point, got \(here)") }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            i += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { throw fail("expected a digit in the exponent, got \(here)") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        // The grammar is checked above, so strtod reads all of it (an overflow is an infinity).
        guard let double = Double(text) else { throw fail("a number out of every range", at: start) }
        return JSONNumber(text: text, double: double)
    }

    /// A string from its opening quote, escapes resolved, UTF-8 checked.
    mutating func string() throws -> String {
        i += 1  // the opening quote
        let start = i
        // The common case: ASCII with no escape, read straight into a String.
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
                i += 1
                return s
            }
            if b == UInt8(ascii: "\\") || b < 0x20 || b >= 0x80 { break }
            i += 1
        }
        var out = [UInt8](UnsafeBufferPointer(rebasing: bytes[start..<i]))
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "\""):
                i += 1
                // Every byte was checked on the way in: the decoding repairs nothing.
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try escape(into: &out)
            case 0..<0x20:
                throw fail("a control character (\(Self.describe(b))) in a string; it must be escaped")
            case 0x80...:
                try utf8Sequence(into: &out)
            default:
                out.append(b)
                i += 1
            }
        }
        throw fail("a string without its closing quote", at: start - 1)
    }

    mutating func escape(into out: inout [UInt8]) throws {
        let at = i
        i += 1  // the backslash
        guard let e = peek else { throw fail("a string without its closing quote", at: at) }
        i += 1
        switch e {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try hex4(escapeAt: at)
            var scalar = unit
            if (0xDC00...0xDFFF).contains(unit) {
                throw fail("a lone surrogate \\u\(Self.hex(unit)) (a low half without its high half)", at: at)
            }
            if (0xD800...0xDBFF).contains(unit) {
                guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                    throw fail("a lone surrogate \\u\(Self.hex(unit)) (a high half without its low half)", at: at)
                }
                let lowAt = i
                i += 2
                let low = try hex4(escapeAt: lowAt)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw fail("a lone surrogate \\u\(Self.hex(unit)) (followed by \\u\(Self.hex(low)), not a low half)", at: at)
                }
                scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            }
            appendUTF8(scalar, to: &out)
        default:
            // The byte is quoted as the messages quote any byte: it may be a newline.
            throw fail("an unknown escape (\(Self.describe(e)) after a backslash) in a string", at: at)
        }
    }

    /// Four hex digits after `\u` (the cursor is on the first).
    mutating func hex4(escapeAt: Int) throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let b = peek else { throw fail("a \\u escape needs four hex digits, got the end", at: escapeAt) }
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw fail("a \\u escape needs four hex digits, got \(here)")
            }
            value = value << 4 | digit
            i += 1
        }
        return value
    }

    static func hex(_ unit: UInt32) -> String {
        let digits = String(unit, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            out.append(UInt8(scalar))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | scalar >> 6))
            out.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | scalar >> 12))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        default:
            out.append(UInt8(0xF0 | scalar >> 18))
            out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// One multi-byte UTF-8 sequence (the cursor on its lead byte), checked as RFC 3629 has it:
    /// no overlong form, no surrogate, nothing above U+10FFFF.
    mutating func utf8Sequence(into out: inout [UInt8]) throws {
        let lead = bytes[i]
        let count: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF  // the second byte's range
        switch lead {
        case 0xC2...0xDF: count = 2
        case 0xE0: count = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: count = 3
        case 0xED: count = 3; high = 0x9F
        case 0xF0: count = 4; low = 0x90
        case 0xF1...0xF3: count = 4
        case 0xF4: count = 4; high = 0x8F
        default: throw fail("invalid UTF-8 (\(Self.describe(lead)) starts no character)")
        }
        guard i + count <= bytes.count else { throw fail("invalid UTF-8 (a character cut off by the end)") }
        for k in 1..<count {
            let b = bytes[i + k]
            let range = k == 1 ? low...high : 0x80...0xBF
            guard range.contains(b) else { throw fail("invalid UTF-8 (\(Self.describe(b)) inside a character)", at: i + k) }
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<i + count]))
        i += count
    }
}
