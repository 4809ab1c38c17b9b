import Testing
@testable import KioskRuntime
import KioskTestSupport

/// Kiosk's setup and teardown path (its `ResourceStack`) with fake steps in place of the
/// session's own (`Kiosk.Step`): a failure at every step in turn releases exactly what was
/// set up, in reverse.
@Suite struct RunSessionTeardownTests {
    static let steps = Kiosk.Step.allCases.map(\.rawValue)

    private struct StepFailed: Error, Equatable {
        let step: String
    }

    private final class Log {
        var lines: [String] = []
    }

    /// Runs the steps on `stack` until step `failing` throws, and then releases the stack, as
    /// Kiosk's init does.
    private func setUp(on stack: ResourceStack, failingAt failing: Int?, log: Log) -> StepFailed? {
        do {
            for (i, name) in Self.steps.enumerated() {
                let made = try stack.acquire(name, try make(name, fails: i == failing, log: log)) { log.lines.append("release \($0)") }
                #expect(made == name)
            }
        } catch {
            stack.releaseAll()
            return error as? StepFailed
        }
        return nil
    }

    private func make(_ name: String, fails: Bool, log: Log) throws -> String {
        if fails { throw StepFailed(step: name) }
        log.lines.append("acquire \(name)")
        return name
    }

    @Test(arguments: steps.indices)
    func aFailureAtEachStepReleasesExactlyWhatWasSetUpInReverse(failing: Int) {
        let stack = ResourceStack(), log = Log()
        #expect(setUp(on: stack, failingAt: failing, log: log) == StepFailed(step: Self.steps[failing]))
        let acquired = Self.steps[..<failing]
        #expect(log.lines == acquired.map { "acquire \($0)" } + acquired.reversed().map { "release \($0)" })
        #expect(stack.names.isEmpty)
        stack.releaseAll()
        #expect(log.lines.count == 2 * failing, "nothing is released twice")
    }

    @Test func aCompleteSetupIsReleasedInReverseOnceEvenWhenClosedTwice() {
        let stack = ResourceStack(), log = Log()
        #expect(setUp(on: stack, failingAt: nil, log: log) == nil)
        #expect(stack.names == Self.steps)
        stack.releaseAll()
        stack.releaseAll()
        #expect(log.lines == Self.steps.map { "acquire \($0)" } + Self.steps.reversed().map { "release \($0)" })
    }

    @Test func theDisplayIsRestoredBeforeTheConsole() throws {
        let stack = ResourceStack(), log = Log()
        _ = setUp(on: stack, failingAt: nil, log: log)
        stack.releaseAll()
        let display = try #require(log.lines.firstIndex(of: "release display"))
        let console = try #require(log.lines.firstIndex(of: "release console"))
        #expect(display < console, "CRTC back and master dropped before KD_TEXT and VT_AUTO")
    }
}
