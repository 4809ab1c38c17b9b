import KioskSeams

/// Where an input event goes after the screen's owner admitted it: the dial, or not. Pure, so
/// the loop decides it alone; the service hears of every event as `LoopMessage.input` either way.
package enum InputRoute {
    /// Whether the dial gets `event`: only what the screen admitted for the dial; never the
    /// speech keys (the audio side's); while a value dial is open (`captured`), only `first`
    /// (the rest turns, commits or closes the value dial in the service).
    package static func reachesDial(_ event: InputEvent, admission: ScreenPolicy.Admission, captured: Bool) -> Bool {
        guard case .dial = admission else { return false }
        switch event {
        case .command(.speech, _): return false
        case .command(.first, _): return true
        case .command, .touch: return !captured
        }
    }
}
