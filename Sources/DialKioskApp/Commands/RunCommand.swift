import ArgumentParser
import DialCore
import KMSOutput
import KioskReporting
import KioskConfiguration
import KioskFeatures
import KioskRuntime
import KioskVocabulary

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Show the dial full screen and turn it by touch.",
        discussion: """
            Event lines (JSON, one per line, each with its time t: \(EventVocabulary.names(writtenBy: .run))) \
            go to stdout; log lines go to stderr, with <N> priorities when stderr is \
            the journal. SIGHUP re-reads --config; SIGTERM or SIGINT leave cleanly (exit 0).
            """
    )

    @OptionGroup var options: RunOptions

    func run() throws {
        try reportingErrors {
            let environment = ProcessEnvironment.current()
            // The file is read before anything touches the display: a broken one exits 78 with
            // its line, and the console keeps whatever it showed.
            var config = try ConfigLoader.load(path: options.config)
            let logger = JournalLogger(format: .forStandardError(environment: environment))
            // With a fleet: section, the last confirmed pushed configuration runs over the file.
            let fleet = config.fleet.map { settings in
                FleetStart.bridge(settings: settings, local: config, stateDir: options.stateDir, environment: environment, logger: logger)
            }
            if let fleet { config = fleet.overlay(local: config) }
            var settings = options.settings(config: config)
            settings.fleet = fleet
            let session = try Kiosk(settings: settings, devices: options.devices(environment: environment, logger: logger))
            defer { session.close() }
            let ending = try session.run()
            logger.info("run: ended by \(ending == .signal ? "signal" : "--exit-after"), \(session.flipCount) flips")
        }
    }
}
