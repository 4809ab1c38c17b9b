import KioskConfiguration

/// The message `text` (a configuration named `file`) produces, or a note that it parsed. A
/// configuration error must be one line with the config status: one that is not comes back
/// marked, so a test comparing the message fails on it.
package func configErrorMessage(_ text: String, file: String) -> String {
    do {
        _ = try ConfigParser.parse(text, file: file)
        return "parsed without error"
    } catch let error as ConfigError {
        guard error.exitStatus == .config else { return "status \(error.exitStatus), not config: \(error.description)" }
        guard !error.description.contains("\n") else { return "more than one line: \(error.description)" }
        return error.description
    } catch {
        return "unexpected error \(error)"
    }
}
