import KioskLoop
import KioskSeams

/// Faults at fixed numbers for a virtual display: presents refused with the kernel's answers,
/// flips that miss their vblank; it counts the vblanks it made miss.
package final class ScriptedPresentFaults: PresentFaults {
    /// Flips (numbered from 1) that miss their vblank.
    package let missedFlips: Set<Int>
    /// Presents (every call counts, from 1) that fail, and how.
    package let failedPresents: [Int: PresentFailure]
    /// Vblanks missed so far on purpose.
    package private(set) var missed = 0

    package init(missedFlips: Set<Int> = [], failedPresents: [Int: PresentFailure] = [:]) {
        self.missedFlips = missedFlips
        self.failedPresents = failedPresents
    }

    package func refusal(ofPresent present: Int) -> PresentFailure? { failedPresents[present] }

    package func missesVblank(flip: Int) -> Bool {
        guard missedFlips.contains(flip) else { return false }
        missed += 1
        return true
    }
}
