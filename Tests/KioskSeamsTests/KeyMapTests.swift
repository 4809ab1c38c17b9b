import Testing
@testable import KioskSeams

@Suite struct KeyMapTests {
    @Test func arrowsStepOneItem() {
        #expect(KeyMap.command(code: KeyMap.keyLeft, pressed: true) == .step(-1))
        #expect(KeyMap.command(code: KeyMap.keyUp, pressed: true) == .step(-1))
        #expect(KeyMap.command(code: KeyMap.keyRight, pressed: true) == .step(1))
        #expect(KeyMap.command(code: KeyMap.keyDown, pressed: true) == .step(1))
    }

    @Test func enterSpaceActivateAndHomeGoesFirst() {
        #expect(KeyMap.command(code: 28, pressed: true) == .activate)
        #expect(KeyMap.command(code: 96, pressed: true) == .activate)
        #expect(KeyMap.command(code: 57, pressed: true) == .activate)
        #expect(KeyMap.command(code: 102, pressed: true) == .first)
    }

    /// Escape, Backspace and the wheel's click (BTN_MIDDLE) go back a ring.
    @Test func escapeBackspaceAndTheWheelClickGoBack() {
        #expect(KeyMap.command(code: 1, pressed: true) == .back)
        #expect(KeyMap.command(code: 14, pressed: true) == .back)
        #expect(KeyMap.command(code: 274, pressed: true) == .back)
        #expect(KeyMap.command(code: 1, pressed: false) == nil)
        #expect(KeyMap.command(code: 274, pressed: false) == nil)
        #expect(KeyMap.command(code: 272, pressed: true) == nil)  // BTN_LEFT is the mouse finger's
    }

    /// R and keypad 0 repeat the last utterance, S and keypad '.' toggle speech
    /// (evdev codes 19, 82, 31, 83).
    @Test func speechKeys() {
        #expect(KeyMap.command(code: 19, pressed: true) == .speech(.repeatLast))
        #expect(KeyMap.command(code: 82, pressed: true) == .speech(.repeatLast))
        #expect(KeyMap.command(code: 31, pressed: true) == .speech(.toggle))
        #expect(KeyMap.command(code: 83, pressed: true) == .speech(.toggle))
        #expect(KeyMap.command(code: 19, pressed: false) == nil)
    }

    @Test func releasesAndOtherKeysDoNothing() {
        #expect(KeyMap.command(code: KeyMap.keyLeft, pressed: false) == nil)
        #expect(KeyMap.command(code: 30, pressed: true) == nil)  // KEY_A
    }
}
