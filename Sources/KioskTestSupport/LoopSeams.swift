import Glibc
import KioskConfiguration
import KioskLoop
import KioskServiceKit

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

/// A kiosk rig's scenes: `build` for a reload (resting on an item index), and `run`'s reload
/// worker when a test gives one.
package final class ClosureScenes: SceneBuilding {
    package let build: (KioskConfig, Int?) throws -> Scene
    package let reloadWorker: ReloadWorker?

    package init(build: @escaping (KioskConfig, Int?) throws -> Scene, reloadWorker: ReloadWorker? = nil) {
        self.build = build
        self.reloadWorker = reloadWorker
    }

    package func adjusted(_ config: KioskConfig) -> KioskConfig { config }

    package func scene(for config: KioskConfig, resting: SceneResting) throws -> Scene? {
        guard case .index(let index) = resting else { return nil }
        return try build(config, index)
    }
}
