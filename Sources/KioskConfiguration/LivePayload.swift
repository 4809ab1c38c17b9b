import Yams

/// What a live item's MQTT payload says: the text itself, or the value at a dotted key of a
/// JSON object (`state`, `attributes.temperature`). Payloads come from the network: bounded
/// before any decoding, and a payload that does not hold the key is an error, never a crash.
package enum LivePayload {
    /// Longer payloads are refused unread.
    package static let maximumBytes = 1024

    package struct Refusal: Error, Equatable, CustomStringConvertible {
        package var description: String
        package init(_ description: String) { self.description = description }
    }

    /// The value `payload` holds at `key` (empty: the payload as text, ends trimmed).
    package static func value(_ payload: [UInt8], key: [String]) -> Result<String, Refusal> {
        guard payload.count <= maximumBytes else {
            return .failure(Refusal("payload of \(payload.count) bytes, more than \(maximumBytes)"))
        }
        let text = String(decoding: payload, as: UTF8.self)
        guard !key.isEmpty else { return .success(trimmed(text)) }
        // JSON is YAML's flow style: the configuration's parser reads it (on 1 KiB at most).
        guard let root = try? Yams.compose(yaml: text) else {
            return .failure(Refusal("payload is not JSON (wanted key '\(key.joined(separator: "."))')"))
        }
        var node = root
        for part in key {
            guard case .mapping(let mapping) = node, let next = mapping[Node(part)] else {
                return .failure(Refusal("payload has no key '\(key.joined(separator: "."))'"))
            }
            node = next
        }
        guard case .scalar(let scalar) = node else {
            return .failure(Refusal("'\(key.joined(separator: "."))' is not a single value"))
        }
        return .success(trimmed(scalar.string))
    }

    /// A number a value topic says: plain text or the value at `key`; NaN and infinities refused.
    package static func number(_ payload: [UInt8], key: [String] = []) -> Result<Double, Refusal> {
        switch value(payload, key: key) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let text):
            guard let number = Double(text), number.isFinite else {
                return .failure(Refusal("'\(text.prefix(32))' is not a number"))
            }
            return .success(number)
        }
    }

    private static func trimmed(_ s: String) -> String {
        var t = Substring(s)
        while let c = t.first, c.isWhitespace { t = t.dropFirst() }
        while let c = t.last, c.isWhitespace { t = t.dropLast() }
        return String(t)
    }
}
