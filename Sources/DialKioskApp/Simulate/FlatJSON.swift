/// A JSON value that may stand in a touch script line.
enum JSONScalar: Equatable, CustomStringConvertible {
    case number(Double), string(String), bool(Bool), null

    var description: String {
        switch self {
        case .number(let d): return "\(d)"
        case .string(let s): return "'\(s)'"
        case .bool(let b): return "\(b)"
        case .null: return "null"
        }
    }
}

/// One JSON object (RFC 8259) whose values are all scalars, as a touch script line holds. Read
/// by hand: Foundation's decoders take 10-20 µs a line, and a script has millions of lines,
/// each read twice (checked, then run). Anything else, a nested value or a key given twice
/// included, is nil.
enum FlatJSON {
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    static func object(_ bytes: ArraySlice<UInt8>) -> [String: JSONScalar]? {
        var reader = Reader(bytes: bytes)
        return reader.object()
    }

    private struct Reader {
        let bytes: ArraySlice<UInt8>
        var i: Int

        init(bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            i = bytes.startIndex
        }

        var peek: UInt8? { i < bytes.endIndex ? bytes[i] : nil }

        mutating func skipSpace() {
            while let b = peek, FlatJSON.isSpace(b) { i += 1 }
        }

        mutating func eat(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            i += 1
            return true
        }

        mutating func object() -> [String: JSONScalar]? {
            skipSpace()
            guard eat(UInt8(ascii: "{")) else { return nil }
            var result: [String: JSONScalar] = [:]
            skipSpace()
            if !eat(UInt8(ascii: "}")) {
                repeat {
                    skipSpace()
                    guard let key = string() else { return nil }
                    skipSpace()
                    guard eat(UInt8(ascii: ":")) else { return nil }
                    skipSpace()
                    guard let value = scalar(), result.updateValue(value, forKey: key) == nil else { return nil }
                    skipSpace()
                } while eat(UInt8(ascii: ","))
                guard eat(UInt8(ascii: "}")) else { return nil }
            }
            skipSpace()
            return i == bytes.endIndex ? result : nil
        }

        mutating func scalar() -> JSONScalar? {
            switch peek {
            case UInt8(ascii: "\""): return string().map { .string($0) }
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            default: return number().map { .number($0) }
            }
        }

        mutating func literal(_ word: String) -> Bool {
            guard bytes[i...].starts(with: word.utf8) else { return false }
            i += word.utf8.count
            return true
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
        mutating func number() -> Double? {
            let start = i
            _ = eat(UInt8(ascii: "-"))
            func digits() -> Int {
                let from = i
                while let b = peek, b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") { i += 1 }
                return i - from
            }
            if eat(UInt8(ascii: "0")) {
                if let b = peek, b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") { return nil }
            } else if digits() == 0 {
                return nil
            }
            if eat(UInt8(ascii: ".")), digits() == 0 { return nil }
            if eat(UInt8(ascii: "e")) || eat(UInt8(ascii: "E")) {
                if !eat(UInt8(ascii: "+")) { _ = eat(UInt8(ascii: "-")) }
                if digits() == 0 { return nil }
            }
            return Double(String(decoding: bytes[start..<i], as: UTF8.self))
        }

        /// A string with its escapes resolved; nil for raw control characters, bad escapes,
        /// lone surrogates and invalid UTF-8.
        mutating func string() -> String? {
            guard eat(UInt8(ascii: "\"")) else { return nil }
            var out: [UInt8] = []
            while let b = peek {
                i += 1
                switch b {
                case UInt8(ascii: "\""):
                    return String(validating: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard let e = peek else { return nil }
                    i += 1
                    switch e {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        guard let scalar = escapedScalar() else { return nil }
                        out.append(contentsOf: String(Character(scalar)).utf8)
                    default: return nil
                    }
                case 0..<0x20:
                    return nil
                default:
                    out.append(b)
                }
            }
            return nil
        }

        /// After `\u`: four hex digits, and a second `\uDC00`-`\uDFFF` after a high surrogate.
        mutating func escapedScalar() -> Unicode.Scalar? {
            guard let high = hex4() else { return nil }
            guard (0xD800...0xDBFF).contains(high) else { return Unicode.Scalar(high) }
            guard eat(UInt8(ascii: "\\")), eat(UInt8(ascii: "u")), let low = hex4(), (0xDC00...0xDFFF).contains(low) else {
                return nil
            }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        }

        mutating func hex4() -> UInt32? {
            guard bytes.endIndex - i >= 4, let value = UInt32(String(decoding: bytes[i..<i + 4], as: UTF8.self), radix: 16),
                  bytes[i..<i + 4].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") }) else { return nil }
            i += 4
            return value
        }
    }
}
