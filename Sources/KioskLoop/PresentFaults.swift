import KioskSeams

/// What a virtual display's presents meet besides its vblank clock, as a kernel's answers
/// would be: a refused present, a flip that misses its vblank. The product's virtual displays
/// (`simulate`, `bench`, `run --display virtual:`) have none; tests inject them
/// (KioskTestSupport's `ScriptedPresentFaults`) to drive the loop's retry and pacing paths.
package protocol PresentFaults: AnyObject {
    /// The refusal of present number `present` (every call counts, from 1), after its paint as
    /// a flip's is; nil: it is taken.
    func refusal(ofPresent present: Int) -> PresentFailure?
    /// Whether flip number `flip` (from 1) misses its vblank and lands one refresh later, as a
    /// frame queued too late for a vblank does.
    func missesVblank(flip: Int) -> Bool
}
