import KioskJSON

/// A JSON value that may stand in a touch script line.
package enum JSONScalar: Equatable, CustomStringConvertible {
    case number(Double), string(String), bool(Bool), null

    package var description: String {
        switch self {
        case .number(let d): return "\(d)"
        case .string(let s): return "'\(s)'"
        case .bool(let b): return "\(b)"
        case .null: return "null"
        }
    }
}

/// One JSON object whose values are all scalars, as a touch script line holds, read by the
/// project's one JSON reader (KioskJSON: strict RFC 8259, linear in the line). Anything else,
/// a nested value or a key given twice included, is refused with the reason.
package enum FlatJSON {
    /// A touch script line is at most 64 KiB (`LineReader`'s bound) and nests nothing.
    static let limits = JSONLimits(maximumBytes: 64 * 1024, maximumDepth: 1)

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    static func object(_ bytes: ArraySlice<UInt8>) -> [String: JSONScalar]? {
        try? read(bytes).get()
    }

    /// The object, or why the line is not one: `byte 9: expected a value, got '}'`.
    static func read(_ bytes: ArraySlice<UInt8>) -> Result<[String: JSONScalar], FlatJSONRefusal> {
        let object: JSONObject
        switch JSONReader.parse(bytes, limits: limits) {
        case .success(.object(let o)): object = o
        case .success(let other): return .failure(FlatJSONRefusal("\(other.kind), not an object"))
        case .failure(let error):
            // A nested value is over the depth bound of one: say what it is, not the bound.
            if error.message.hasPrefix("nested deeper") {
                return .failure(FlatJSONRefusal("byte \(error.offset): a nested array or object"))
            }
            return .failure(FlatJSONRefusal(error.description))
        }
        if let key = object.repeatedKey { return .failure(FlatJSONRefusal("key '\(key)' given twice")) }
        var result: [String: JSONScalar] = [:]
        for member in object.members {
            switch member.value {
            case .number(let n): result[member.key] = .number(n.double)
            case .string(let s): result[member.key] = .string(s)
            case .bool(let b): result[member.key] = .bool(b)
            case .null: result[member.key] = .null
            case .array, .object: return .failure(FlatJSONRefusal("'\(member.key)' is \(member.value.kind)"))
            }
        }
        return .success(result)
    }
}

package struct FlatJSONRefusal: Error, Equatable, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
}
