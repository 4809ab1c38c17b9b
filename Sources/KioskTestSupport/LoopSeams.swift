import Glibc
import KioskConfiguration
import KioskLoop
import KioskFeatures

/// Signals "delivered" through a pipe: `send` queues them and makes the pipe readable, as a
/// signalfd would be.
package final class PipeSignals: PollSource {
    private var fds: [Int32] = [-1, -1]
    private var queued: [LoopSignal] = []

    package init() {
        _ = pipe(&fds)
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
    }

    deinit { close(fds[0]); close(fds[1]) }

    package func send(_ signals: [LoopSignal]) {
        queued += signals
        var b: UInt8 = 1
        _ = write(fds[1], &b, 1)
    }

    package var pollDescriptors: [pollfd] { [pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)] }

    package func serve(_ polled: [pollfd], now: Double) throws -> [LoopEvent] {
        guard isReadable(polled) else { return [] }
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(fds[0], &bytes, bytes.count) > 0 {}
        defer { queued.removeAll() }
        return queued.map(LoopEvent.signal)
    }
}

/// The clock a loop under test reads (tests never read the real one): moved by the test, and by
/// a fake paint that takes time. The app's virtual clock (`simulate`'s) is that clock.
package typealias FakeClock = VirtualClock

/// A kiosk rig's scenes: `build` for a reload (resting on an item index), prepared in the turn
/// that asked (the App's tests use `run`'s own scenes for a reload off the loop).
package final class ClosureScenes: SceneBuilding {
    package let build: (KioskConfig, Int?) throws -> Scene

    package init(build: @escaping (KioskConfig, Int?) throws -> Scene) {
        self.build = build
    }

    package func adjusted(_ config: KioskConfig) -> KioskConfig { config }

    package func scene(for config: KioskConfig, resting: SceneResting) throws -> Scene? {
        guard case .index(let index) = resting else { return nil }
        return try build(config, index)
    }

    package func preparation() -> ((KioskConfig, String?) throws -> PreparedScene)? {
        let build = self.build
        // Built in the default language (the commit asks for the language shown).
        return { config, _ in
            // Built once here, so a configuration that cannot be built is refused before the
            // commit; again on the loop when the dial rests elsewhere than the default item.
            let atDefault = try build(config, nil)
            return PreparedScene(language: nil) { top in
                guard let index = top.flatMap({ id in config.items.firstIndex { $0.id == id } }) else { return atDefault }
                return try build(config, index)
            }
        }
    }

    package var preparesOffTheLoop: Bool { false }
}
