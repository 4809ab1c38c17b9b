/// `<base>/set/<name>` with its payload, as a control command; the control socket's own
/// parser reads a verb's argument, so both accept exactly the same.
package enum MQTTCommand {
    /// The topics it takes, as its refusal of an unknown one lists them.
    package static let names = ControlVocabulary.mqttInputs.filter { $0.input.isCommand }.map(\.input.topic)

    package static func parse(name: String, payload: String) -> Result<ControlCommand, MQTTCommandError> {
        let argument = payload.trimmingWhitespace()
        guard let found = ControlVocabulary.mqttCommand(name) else {
            return .failure(MQTTCommandError("unknown command '\(name.logExcerpt(64))'; commands: " + names.joined(separator: ", ")))
        }
        let verb = found.verb
        let line: String
        switch found.input.payload {
        case .word:
            guard !argument.isEmpty else { return .failure(MQTTCommandError("set/\(name) needs a payload")) }
            guard !argument.contains(" "), !argument.contains("\n") else {
                return .failure(MQTTCommandError("payload '\(argument.logExcerpt(64))' is not one word"))
            }
            line = "\(verb.name) \(argument)"
        case .ignored:
            // The payload is ignored: Home Assistant's buttons send PRESS.
            line = verb.name
        case .parsed(let parse):
            return parse(argument)
        case .routed:
            return .failure(MQTTCommandError("set/\(name) is not a command"))  // mqttCommand never returns one
        }
        switch ControlLine.parse(line) {
        case .command(let command): return .success(command)
        case .invalid(let message): return .failure(MQTTCommandError(message))
        case .blank: return .failure(MQTTCommandError("empty command"))
        }
    }
}

package struct MQTTCommandError: Error, Equatable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
