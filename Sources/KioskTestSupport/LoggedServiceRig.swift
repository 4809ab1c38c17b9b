import Glibc
import LinuxSystem
import KioskConfiguration
import KioskReporting
import KioskFeatures

/// A service on a one-item configuration file in a temporary folder, its journal lines
/// collected and its event lines written to a pipe nobody reads (non-blocking): for the tests
/// that count what a flood of remote input logs.
package final class LoggedServiceRig {
    package let dir = TemporaryDirectory()
    package let path: String
    package private(set) var lines: [String] = []
    package private(set) var service: LegacyService!
    private var pipeFDs: [Int32] = [-1, -1]

    /// `config`: the file's text; `environment`: the process environment the service sees.
    package init(config: String = "items: [{id: a, label: A}]\n", environment: [String: String] = [:]) throws {
        path = dir.path + "/k.yaml"
        writeFile(path, config)
        _ = pipe(&pipeFDs)
        _ = fcntl(pipeFDs[1], F_SETFL, O_NONBLOCK)
        service = try LegacyService(config: try ConfigLoader.load(path: path), configPath: path, controlPath: nil, environment: environment,
                                   logger: JournalLogger(format: LogFormat(journalPrefixes: false)) { [unowned self] in self.lines.append($0) },
                                   eventsFD: pipeFDs[1], now: 0)
    }

    deinit {
        service = nil
        pipeFDs.forEach { close($0) }
        dir.remove()
    }
}
