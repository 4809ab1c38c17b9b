import DialCore

/// An item's `live:` and `value:` keys: where its live text comes from, and the value dial it
/// opens. Every key is checked with its line: a range whose maximum is not above its minimum
/// (reported at `max`), a step that does not divide the range (at `step`), topics with
/// wildcards.
extension ConfigSection {
    package static let liveKeys = ["topic", "key", "format", "available_topic"]
    package static let valueKeys = ["min", "max", "step", "unit", "command_topic", "state_topic", "current_topic",
                                    "command", "commit_after_seconds", "guard_seconds"]

    /// The item's `live:` binding; nil when absent.
    package func liveBinding() throws -> LiveBinding? {
        guard let live = try section("live", known: Self.liveKeys) else { return nil }
        guard let topic = try live.topic("topic") else {
            throw error("live", value("live"), "live needs a topic (the MQTT topic whose payload is the item's text)")
        }
        var key: [String] = []
        if let text = try live.name("key", maximumBytes: 256) {
            key = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !key.contains(where: \.isEmpty) else {
                throw live.error("key", live.value("key"), "expected a dotted path such as state or attributes.temperature, got '\(text)'")
            }
        }
        let format = try live.name("format", maximumBytes: 256)
        if let format, !format.contains("{}") {
            throw live.error("format", live.value("format"), "expected a text with {} where the value goes, got '\(format)'")
        }
        return LiveBinding(topic: topic, key: key, format: format, availableTopic: try live.topic("available_topic"))
    }

    /// The item's `value:` settings; nil when absent.
    package func valueSettings() throws -> ValueSettings? {
        guard let v = try section("value", known: Self.valueKeys) else { return nil }
        let finite = "(a finite number)"
        guard let minimum = try v.number("min", where: { $0.isFinite }, finite) else {
            throw error("value", value("value"), "value needs min, max and step")
        }
        guard let maximum = try v.number("max", where: { $0.isFinite }, finite) else {
            throw error("value", value("value"), "value needs min, max and step")
        }
        guard maximum > minimum else {
            throw v.error("max", v.value("max"), "max (\(maximum)) must be greater than min (\(minimum))")
        }
        guard let step = try v.number("step", where: { $0 > 0 && $0.isFinite }, "greater than 0") else {
            throw error("value", value("value"), "value needs min, max and step")
        }
        let steps = (maximum - minimum) / step
        guard abs(steps - steps.rounded()) < 1e-6, steps.rounded() <= 100_000 else {
            throw v.error("step", v.value("step"), "the step \(step) does not divide the range \(minimum) to \(maximum) "
                          + "into whole steps (at most 100000)")
        }
        var settings = ValueSettings(minimum: minimum, maximum: maximum, step: step)
        settings.unit = try v.name("unit", maximumBytes: 32)
        settings.commandTopic = try v.topic("command_topic")
        settings.stateTopic = try v.topic("state_topic")
        settings.currentTopic = try v.topic("current_topic")
        settings.command = try v.argv("command")
        settings.commitAfter = try v.number("commit_after_seconds", where: { $0 >= 0 && $0 <= 60 }, "of seconds from 0 to 60") ?? 1.0
        settings.guardSeconds = try v.number("guard_seconds", where: { $0 >= 0 && $0 <= 60 }, "of seconds from 0 to 60") ?? 3.0
        return settings
    }

    /// An MQTT topic to subscribe to or publish on: no wildcards (it names one thing).
    func topic(_ key: String) throws -> String? {
        guard let topic = try name(key, maximumBytes: 1024) else { return nil }
        if let problem = MQTTSettings.topicProblem(topic) { throw error(key, value(key), "topic \(problem)") }
        return topic
    }
}
