/// A JSON value (RFC 8259) as `JSONReader` reads it from bytes that came from outside.
///
/// `null` is its own case, "no value": it never turns into the text "null". A number keeps the
/// text it was written as, so an integer wider than a Double's 53 bits is still exact.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The value of a scalar as text: a string itself, a number as written, `true`/`false`;
    /// nil for `null` (no value), an array or an object.
    package var scalarText: String? {
        switch self {
        case .string(let s): return s
        case .number(let n): return n.text
        case .bool(let b): return b ? "true" : "false"
        case .null, .array, .object: return nil
        }
    }

    /// The value at `path` of nested objects (`["attributes", "temperature"]`); nil when a
    /// level is missing or not an object. An empty path is the value itself.
    package func value(at path: [String]) -> JSONValue? {
        var node = self
        for key in path {
            guard case .object(let object) = node, let next = object[key] else { return nil }
            node = next
        }
        return node
    }

    /// What kind of value it is, for messages ("an array", "null").
    package var kind: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A JSON number: the Double it reads as (an overflow is an infinity, as strtod gives it) and
/// the text it was written as.
package struct JSONNumber: Sendable, Equatable {
    /// Exactly as in the input (the grammar's `-? int frac? exp?`).
    package let text: String
    package let double: Double

    package init(text: String, double: Double) {
        self.text = text
        self.double = double
    }

    /// The number as an Int when it is written as one (no fraction, no exponent) and fits;
    /// nil otherwise, never a rounded or wrapped value.
    package var integer: Int? { Int(text) }
}

/// A JSON object: its members in the input's order. RFC 8259 leaves a repeated name's meaning
/// open; the lookup takes the last one (as Python's json module does), and `repeatedKey`
/// says whether there is one for a reader that refuses them.
package struct JSONObject: Sendable, Equatable {
    package var members: [JSONMember]

    package init(_ members: [JSONMember]) { self.members = members }

    /// The value of the last member named `key`.
    package subscript(key: String) -> JSONValue? {
        members.last { $0.key == key }?.value
    }

    package var keys: [String] { members.map(\.key) }

    /// The first name given twice, if any.
    package var repeatedKey: String? {
        var seen = Set<String>()
        for member in members where !seen.insert(member.key).inserted { return member.key }
        return nil
    }
}

package struct JSONMember: Sendable, Equatable {
    package let key: String
    package let value: JSONValue

    package init(key: String, value: JSONValue) {
        self.key = key
        self.value = value
    }
}

/// Why bytes are not JSON, and where: the byte offset (from 0) of the first byte that is wrong.
package struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    package let offset: Int
    package let message: String

    package init(offset: Int, _ message: String) {
        self.offset = offset
        self.message = message
    }

    /// `byte 12: expected ':' after an object key, got '}'`
    package var description: String { "byte \(offset): \(message)" }
}

/// How much the reader takes: checked before any decoding (the size) and while it nests (the
/// depth), so no input costs more than its bytes' worth of work and memory.
package struct JSONLimits: Sendable, Equatable {
    /// Longer input is refused unread.
    package var maximumBytes: Int
    /// Arrays and objects open at once; one more is refused where it opens.
    package var maximumDepth: Int

    package init(maximumBytes: Int, maximumDepth: Int) {
        self.maximumBytes = maximumBytes
        self.maximumDepth = maximumDepth
    }

    /// What arrives from the network in one message: 64 KiB, 32 levels.
    package static let standard = JSONLimits(maximumBytes: 64 * 1024, maximumDepth: 32)
}
