import KioskSeams
import Testing
@testable import RemoteView

@Suite struct ViewerInputTests {
    func phases(_ events: [InputEvent]) -> [TouchPhase] {
        events.compactMap { if case .touch(let t) = $0, t.phase != .frame { return t.phase } else { return nil } }
    }

    @Test func buttonOneIsOneFinger() {
        var input = ViewerInput()
        let a = input.pointer(buttons: 0, x: 10, y: 10, time: 1, rotation: .none, panelWidth: 800, panelHeight: 480)
        let b = input.pointer(buttons: 1, x: 10, y: 10, time: 2, rotation: .none, panelWidth: 800, panelHeight: 480)
        let c = input.pointer(buttons: 1, x: 10, y: 10, time: 3, rotation: .none, panelWidth: 800, panelHeight: 480)
        let d = input.pointer(buttons: 1, x: 30, y: 12, time: 4, rotation: .none, panelWidth: 800, panelHeight: 480)
        let e = input.pointer(buttons: 0, x: 30, y: 12, time: 5, rotation: .none, panelWidth: 800, panelHeight: 480)
        #expect(phases(a).isEmpty && phases(c).isEmpty)
        #expect(phases(b) == [.down] && phases(d) == [.motion] && phases(e) == [.up])
        guard case .touch(let t) = d[0] else { Issue.record("no touch"); return }
        #expect(t.x == 30 && t.y == 12 && t.time == 4 && t.slot == ViewerInput.slot)
    }

    @Test func coordinatesTurnAsATouchDoes() {
        var input = ViewerInput()
        // A 480x800 panel turned a quarter: the panel's (470, 5) is near the logical top-left.
        let e = input.pointer(buttons: 1, x: 470, y: 5, time: 1, rotation: .quarter, panelWidth: 480, panelHeight: 800)
        guard case .touch(let t) = e[0] else { Issue.record("no touch"); return }
        let expected = DisplayRotation.quarter.logicalPoint(Point(x: 470, y: 5), panelWidth: 480, panelHeight: 800)
        #expect(t.x == expected.x && t.y == expected.y)
        #expect(t.x == 5 && t.y == 10)
    }

    @Test func wheelButtonsAreDetents() {
        var input = ViewerInput()
        let up = input.pointer(buttons: 8, x: 0, y: 0, time: 1, rotation: .none, panelWidth: 8, panelHeight: 8)
        let held = input.pointer(buttons: 8, x: 0, y: 0, time: 1.1, rotation: .none, panelWidth: 8, panelHeight: 8)
        _ = input.pointer(buttons: 0, x: 0, y: 0, time: 1.2, rotation: .none, panelWidth: 8, panelHeight: 8)
        let down = input.pointer(buttons: 16, x: 0, y: 0, time: 2, rotation: .none, panelWidth: 8, panelHeight: 8)
        #expect(up == [.command(.step(-1), time: 1)])
        #expect(held.isEmpty)
        #expect(down == [.command(.step(1), time: 2)])
    }

    @Test func aFingerLeftDownIsLiftedWhenTheViewerGoes() {
        var input = ViewerInput()
        _ = input.pointer(buttons: 1, x: 5, y: 5, time: 1, rotation: .none, panelWidth: 8, panelHeight: 8)
        #expect(phases(input.release(time: 2, rotation: .none, panelWidth: 8, panelHeight: 8)) == [.up])
        #expect(input.release(time: 3, rotation: .none, panelWidth: 8, panelHeight: 8).isEmpty)
    }

    @Test func keysymsMapToTheKeyMapsCodes() {
        // linux/input-event-codes.h's numbers, spelled out here on purpose: the table the
        // viewer's keys go through must be the kernel's.
        #expect(ViewerInput.evdevCode(keysym: 0xFF53) == 106 && KeyMap.keyRight == 106)  // Right
        #expect(ViewerInput.evdevCode(keysym: 0xFF0D) == 28 && KeyMap.keyEnter == 28)  // Return
        #expect(ViewerInput.evdevCode(keysym: 0x53) == KeyMap.keyS)
        #expect(ViewerInput.evdevCode(keysym: 0x61) == nil)  // a
    }
}
