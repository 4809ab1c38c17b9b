import DialCore
import Testing
@testable import KioskConfiguration
@testable import KioskFeatures

/// Live payloads with keys, as devices and Python's json module write them.
@Suite struct LivePayloadJSONTests {
    func text(_ payload: String, key: [String] = ["state"]) -> Result<String?, LivePayload.Refusal> {
        LivePayload.value(Array(payload.utf8), key: key)
    }

    @Test func anEscapedSurrogatePairIsTheCharacter() {
        // json.dumps({"state": "🔥 hot"}) writes the emoji as two escapes.
        #expect(text(#"{"state": "\ud83d\udd25 hot"}"#) == .success("🔥 hot"))
        #expect(text(#"{"state": "\ud83d"}"#).map { _ in "" } != .success(""), "a lone surrogate is refused")
    }

    @Test func nullIsNoValueNotTheTextNull() {
        #expect(text(#"{"state": null}"#) == .success(nil))
        let binding = LiveBinding(topic: "t", key: ["state"], format: "{} °C")
        #expect(MQTTLiveRoutes.change(Array(#"{"state": null}"#.utf8), field: .text(binding)) == .success(.text(nil)))
        #expect(LivePayload.number(Array(#"{"state": null}"#.utf8), key: ["state"]) == .failure(.init("'state' is null (no value)")))
    }

    @Test func refusalsSayWhereThePayloadIsWrong() {
        #expect(text(#"{"state": "on",}"#) == .failure(.init("payload is not JSON (wanted key 'state'): byte 15: expected a string key in an object, got '}'")))
        #expect(text(#"{"state": [1]}"#) == .failure(.init("'state' is an array, not a single value")))
        #expect(text(#"{"other": 1}"#) == .failure(.init("payload has no key 'state'")))
        #expect(text(#"{"a": {"b": 21.50}}"#, key: ["a", "b"]) == .success("21.50"))
        let deep = String(repeating: "[", count: 17) + String(repeating: "]", count: 17)
        #expect(text(deep) == .failure(.init("payload is not JSON (wanted key 'state'): byte 16: nested deeper than 16 arrays and objects")))
    }

    /// The shapes that took the YAML reader seconds (unclosed flow nesting, aliases and tags in
    /// flow collections), at the payload bound: each answered, by a refusal or a value.
    @Test func yamlsExponentialShapesAreAnsweredAtOnce() {
        let shapes = [
            String(repeating: "[", count: 300),
            String(repeating: "{\"a\":[", count: 50),
            "{\"state\": [" + String(repeating: "&a [*a, ", count: 40),
            "{" + String(repeating: "? [", count: 100),
            "[" + String(repeating: "!!str [", count: 40),
            // Aliases as keys of aliases: the YAML reader's loop stood still for seconds on it.
            #"{"l0": &k0 {"x": 1}"# + (1..<18).map { #", "l\#($0)": &k\#($0) {*k\#($0 - 1) : *k\#($0 - 1)}"# }.joined()
                + #", "state": 1}"#,
        ]
        for shape in shapes {
            let payload = Array(shape.utf8.prefix(LivePayload.maximumBytes))
            if case .success(let v) = LivePayload.value(payload, key: ["state"]) { Issue.record("\(shape.prefix(20)) accepted as \(v ?? "null")") }
        }
    }
}
