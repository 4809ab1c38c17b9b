import Testing
@testable import KioskSeams

/// Every step of the screen's look, the one answer to "is the screen dark".
@Suite struct ScreenLookTests {
    static let all: [ScreenLook] = [.lit, .dimmedByBacklight, .dimmedByPaint, .blackFrame, .outputOff]

    @Test func onlyTheBlankLooksAreDarkAndOnlyAnOutputOffPresentsNothing() {
        #expect(Self.all.filter(\.isDark) == [.blackFrame, .outputOff])
        #expect(Self.all.filter { !$0.presents } == [.outputOff])
        #expect(Self.all.map(\.paint) == [.picture, .picture, .halved, .black, .black])
    }

    @Test func blankGoesDarkFromLitOrDimAndIsImpossibleWhenDark() {
        for look in [ScreenLook.lit, .dimmedByBacklight, .dimmedByPaint] {
            #expect(look.after(.blanked(outputOff: true)) == .outputOff)
            #expect(look.after(.blanked(outputOff: false)) == .blackFrame)
        }
        for look in [ScreenLook.blackFrame, .outputOff] {
            #expect(look.after(.blanked(outputOff: true)) == nil)
            #expect(look.after(.blanked(outputOff: false)) == nil)
        }
    }

    @Test func dimComesFromAnyLookIncludingTheDark() {
        for look in Self.all {
            #expect(look.after(.dimmed(byBacklight: true)) == .dimmedByBacklight)
            #expect(look.after(.dimmed(byBacklight: false)) == .dimmedByPaint)
        }
    }

    @Test func wakeLightsEveryLookButTheLitOne() {
        for look in Self.all {
            #expect(look.after(.woken) == (look == .lit ? nil : .lit))
        }
    }

    @Test func onlyAnOutputOffIsSwitchedOnForAFrameAndThenShowsBlack() {
        for look in Self.all {
            #expect(look.after(.switchedOnForFrame) == (look == .outputOff ? .blackFrame : nil))
        }
    }

    @Test func anImpossibleStepIsSaidAndTheFallbackTaken() {
        var said: [String] = []
        let look = ScreenLook.outputOff.applying(.blanked(outputOff: false), otherwise: .lit) { said.append($0) }
        #expect(look == .lit)
        #expect(said == ["screen: look outputOff cannot take blanked(outputOff: false); now lit"])
        let fine = ScreenLook.lit.applying(.blanked(outputOff: true), otherwise: .lit) { said.append($0) }
        #expect(fine == .outputOff)
        #expect(said.count == 1)
    }
}
