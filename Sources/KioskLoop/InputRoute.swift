import KioskSeams

/// Where an input event goes after the screen's owner admitted it: the dial, or not. Pure, so
/// the loop decides it alone; the service hears of every event as `LoopMessage.input` either way.
package enum InputRoute {
    /// Whether the dial gets `event`: only what the screen admitted for the dial; never the
    /// speech keys (the audio side's). An open value dial is the dial's own mode: it takes
    /// what it gets there.
    package static func reachesDial(_ event: InputEvent, admission: ScreenPolicy.Admission) -> Bool {
        guard case .dial = admission else { return false }
        if case .command(.speech, _) = event { return false }
        return true
    }
}
