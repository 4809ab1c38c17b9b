import KioskReporting
import KioskLoop

/// Item commands: the one owner of the children they run (spawned without a shell, reaped when
/// SIGCHLD wakes the loop, killed at their timeout). It starts what the bus asks for
/// (`FeatureNews.runCommand`: an activated item, a committed value).
package final class ItemCommands: KioskFeature {
    private let runner: CommandRunner

    package init(environment: [String: String], logger: JournalLogger) {
        runner = CommandRunner(environment: environment, logger: logger)
    }

    package func hear(_ news: FeatureNews, at time: Double) -> FeatureOutput {
        switch news {
        case .runCommand(let item, let path, let at, let timeout, let extra):
            runner.run(item, path: path, now: at, timeout: timeout, extra: extra)
        case .activated, .languageShown:
            break
        }
        return .none
    }

    package func tick(now: Double) -> FeatureOutput {
        runner.reap(now: now)
        return .none
    }

    /// A command's timeout or SIGKILL; children that exit announce themselves by SIGCHLD.
    package func nextWakeup(now: Double) -> Double? { runner.nextDeadline }
}
