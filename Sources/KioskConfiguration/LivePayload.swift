import KioskJSON

/// What a live item's MQTT payload says: the text itself, or the value at a dotted key of a
/// JSON object (`state`, `attributes.temperature`). Payloads come from the network: bounded
/// before any decoding, read by the strict JSON reader (linear in the payload's bytes), and a
/// payload that does not hold the key is an error, never a crash.
package enum LivePayload {
    /// Longer payloads are refused unread.
    package static let maximumBytes = 1024
    /// Arrays and objects open at once in a keyed payload (Home Assistant's state objects nest
    /// two or three deep).
    package static let maximumDepth = 16

    package static let limits = JSONLimits(maximumBytes: maximumBytes, maximumDepth: maximumDepth)

    package struct Refusal: Error, Equatable, CustomStringConvertible {
        package var description: String
        package init(_ description: String) { self.description = description }
    }

    /// The value `payload` holds at `key` (empty: the payload as text, ends trimmed); nil when
    /// the key's value is JSON's `null` (no value: a text item shows its label again).
    package static func value(_ payload: [UInt8], key: [String]) -> Result<String?, Refusal> {
        guard payload.count <= maximumBytes else {
            return .failure(Refusal("payload of \(payload.count) bytes, more than \(maximumBytes)"))
        }
        guard !key.isEmpty else { return .success(String(decoding: payload, as: UTF8.self).trimmingWhitespace()) }
        let name = key.joined(separator: ".")
        let root: JSONValue
        switch JSONReader.parse(payload, limits: limits) {
        case .success(let value): root = value
        case .failure(let error): return .failure(Refusal("payload is not JSON (wanted key '\(name)'): \(error)"))
        }
        guard let found = root.value(at: key) else {
            return .failure(Refusal("payload has no key '\(name)'"))
        }
        if found == .null { return .success(nil) }
        guard let text = found.scalarText else {
            return .failure(Refusal("'\(name)' is \(found.kind), not a single value"))
        }
        return .success(text.trimmingWhitespace())
    }

    /// A number a value topic says: plain text or the value at `key`; NaN, infinities and
    /// `null` refused.
    package static func number(_ payload: [UInt8], key: [String] = []) -> Result<Double, Refusal> {
        switch value(payload, key: key) {
        case .failure(let refusal): return .failure(refusal)
        case .success(nil): return .failure(Refusal("'\(key.joined(separator: "."))' is null (no value)"))
        case .success(let text?):
            guard let number = Double(text), number.isFinite else {
                return .failure(Refusal("'\(text.prefix(32))' is not a number"))
            }
            return .success(number)
        }
    }
}
