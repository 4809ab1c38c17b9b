import DialRender
import KioskConfiguration
import Synchronization

/// Holds the painter a reload's worker built and prepared off the loop (fonts, disc sprites,
/// labels, selection rings: about 100 ms at 1920x1080 here, seconds on a slow board, which the
/// loop used to spend in one turn while the dial stood still) until the loop builds that
/// reload's scene and takes it. A painter is taken only for the configuration and frame size it
/// was built for: a new mode in between, or a newer reload, makes the loop build its own.
///
/// At most one painter waits; whatever is not taken when its reload ends is dropped, so a
/// painter's caches (a few MiB) never outlive the reload they were built for.
package final class PainterShelf: Sendable {
    /// A painter and what it was built for. The painter is the worker's until `put` and the
    /// loop's after `take`; no thread uses it while it waits here (hence unchecked).
    private struct Waiting: @unchecked Sendable {
        let config: KioskConfig
        let width: Int, height: Int
        let painter: DialPainter
    }

    private let slot = Mutex<Waiting?>(nil)

    package init() {}

    /// Leaves `painter`, built for `config` on a `width` x `height` logical frame, for the loop;
    /// one left before is dropped.
    package func put(_ painter: DialPainter, config: KioskConfig, width: Int, height: Int) {
        let waiting = Waiting(config: config, width: width, height: height, painter: painter)
        slot.withLock { $0 = waiting }
    }

    /// The waiting painter when it was built for `config` at `width` x `height`; the shelf is
    /// empty afterwards either way.
    package func take(config: KioskConfig, width: Int, height: Int) -> DialPainter? {
        let waiting = slot.withLock { slot -> Waiting? in
            defer { slot = nil }
            return slot
        }
        guard let waiting, waiting.config == config, waiting.width == width, waiting.height == height else { return nil }
        return waiting.painter
    }

    /// Drops a painter nobody took.
    package func clear() {
        _ = slot.withLock { slot -> Waiting? in
            defer { slot = nil }
            return slot
        }
    }

    /// Whether a painter waits (for tests).
    package var isEmpty: Bool { slot.withLock { $0 == nil } }
}
