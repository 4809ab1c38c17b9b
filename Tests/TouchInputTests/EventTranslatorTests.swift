import Testing
@testable import KioskSeams
@testable import TouchInput

private let screen = InputDeviceID(0)
private let second = InputDeviceID(1)
private let mouse = InputDeviceID(2)
private let touchInfo = InputDeviceInfo(name: "panel", sysname: "event3", seat: "seat0/default", capabilities: .touch)

private func touch(_ d: InputDeviceID, _ slot: Int, _ phase: TouchPhase, _ x: Double = 0, _ y: Double = 0, _ usec: UInt64) -> DeviceRecord {
    .touch(TouchRecord(device: d, slot: slot, phase: phase, x: x, y: y, timeUsec: usec))
}

private func ev(_ slot: Int, _ phase: TouchPhase, _ x: Double, _ y: Double, _ t: Double) -> InputEvent {
    .touch(TouchEvent(slot: slot, phase: phase, x: x, y: y, time: t))
}

private func frame(_ t: Double) -> InputEvent { ev(-1, .frame, 0, 0, t) }

@Suite struct EventTranslatorTests {
    @Test func aDragBecomesTouchEventsInSeconds() {
        var t = EventTranslator(transform: ScreenTransform(panelWidth: 800, panelHeight: 480))
        let out = t.translate([
            .added(screen, touchInfo),
            touch(screen, 0, .down, 100, 200, 1_000_000), touch(screen, -1, .frame, 0, 0, 1_000_000),
            touch(screen, 0, .motion, 110, 205, 1_016_000), touch(screen, -1, .frame, 0, 0, 1_016_000),
            touch(screen, 0, .up, 0, 0, 1_032_000), touch(screen, -1, .frame, 0, 0, 1_032_000),
        ])
        #expect(out == [
            ev(0, .down, 100, 200, 1.0), frame(1.0),
            ev(0, .motion, 110, 205, 1.016), frame(1.016),
            ev(0, .up, 110, 205, 1.032), frame(1.032),  // the up carries the last position
        ])
        #expect(t.devices[screen] == touchInfo)
    }

    @Test func touchesAreTurnedByTheDisplayRotation() {
        var t = EventTranslator(transform: ScreenTransform(panelWidth: 800, panelHeight: 480, rotation: .quarter))
        let out = t.translate([touch(screen, 0, .down, 700, 100, 0)])
        // Turned 90 degrees clockwise: logical (x, y) = (panel y, panel width - panel x).
        #expect(out == [ev(0, .down, 100, 100, 0)])
    }

    @Test func aNewPanelSizeTurnsLaterTouchesOnIt() {
        var t = EventTranslator(transform: ScreenTransform(panelWidth: 800, panelHeight: 480, rotation: .quarter))
        // A hotplug re-modeset to 1024x768: the quarter turn now uses the new panel width.
        t.retarget(ScreenTransform(panelWidth: 1024, panelHeight: 768, rotation: .quarter))
        let out = t.translate([touch(screen, 0, .down, 700, 100, 0)])
        #expect(out == [ev(0, .down, 100, 324, 0)])
    }

    @Test func slotsAreNumberedAcrossDevices() {
        var t = EventTranslator(transform: ScreenTransform(panelWidth: 800, panelHeight: 480))
        let out = t.translate([
            touch(second, 5, .down, 10, 10, 0),
            touch(screen, 0, .down, 20, 20, 0),
            touch(second, 5, .up, 0, 0, 1),
            touch(screen, 1, .down, 30, 30, 2),
        ])
        #expect(out.map(\.slotAndPhase) == ["0 down", "1 down", "0 up", "0 down"])
    }

    @Test func motionOfAnUnknownSlotIsDropped() {
        var t = EventTranslator(transform: ScreenTransform(panelWidth: 800, panelHeight: 480))
        #expect(t.translate([touch(screen, 3, .motion, 1, 1, 0), touch(screen, 3, .up, 0, 0, 1)]).isEmpty)
    }

    /// libinput lifts the fingers of an unplugged device (TOUCH_UP, TOUCH_FRAME) and then
    /// reports DEVICE_REMOVED: the drag ends as a cancel, not a release that could fling.
    @Test func unpluggingMidDragCancels() {
        var t = EventTranslator(transform: ScreenTransform(panelWidth: 800, panelHeight: 480))
        _ = t.translate([.added(screen, touchInfo), touch(screen, 0, .down, 100, 100, 1_000_000)])
        let out = t.translate([
            touch(screen, 0, .motion, 120, 100, 1_010_000), touch(screen, -1, .frame, 0, 0, 1_010_000),
            touch(screen, 0, .up, 0, 0, 1_020_000), touch(screen, -1, .frame, 0, 0, 1_020_000),
            .removed(screen),
        ])
        #expect(out == [ev(0, .motion, 120, 100, 1.01), frame(1.01), ev(0, .cancel, 120, 100, 1.02), frame(1.02)])
        #expect(t.devices[screen] == nil)
    }

    @Test func removalWithoutUpsStillCancels() {
        var t = EventTranslator(transform: ScreenTransform(panelWidth: 800, panelHeight: 480))
        _ = t.translate([touch(screen, 0, .down, 100, 100, 2_000_000), touch(screen, 1, .down, 300, 100, 2_000_000)])
        let out = t.translate([.removed(screen)])
        #expect(out == [ev(0, .cancel, 100, 100, 2.0), ev(1, .cancel, 300, 100, 2.0), frame(2.0)])
    }

    /// A finger lifted by a person before the unplug keeps its up.
    @Test func anUpFollowedByMotionIsARealRelease() {
        var t = EventTranslator(transform: ScreenTransform(panelWidth: 800, panelHeight: 480))
        let out = t.translate([
            touch(screen, 0, .down, 1, 1, 0), touch(screen, 0, .up, 0, 0, 1),
            touch(screen, 1, .down, 5, 5, 2), touch(screen, 1, .motion, 6, 6, 3),
            touch(screen, 1, .up, 0, 0, 4), .removed(screen),
        ])
        #expect(out.map(\.slotAndPhase) == ["0 down", "0 up", "0 down", "0 motion", "0 cancel"])
    }

    @Test func removingAnotherDeviceLeavesTheDragAlone() {
        var t = EventTranslator(transform: ScreenTransform(panelWidth: 800, panelHeight: 480))
        let out = t.translate([touch(screen, 0, .down, 1, 1, 0), touch(screen, 0, .up, 0, 0, 1), .removed(second)])
        #expect(out.map(\.slotAndPhase) == ["0 down", "0 up"])
    }

    @Test func aCancelWithoutSlotEndsEveryTouchOfTheDevice() {
        var t = EventTranslator(transform: ScreenTransform(panelWidth: 800, panelHeight: 480))
        let out = t.translate([
            touch(screen, 0, .down, 1, 1, 0), touch(second, 0, .down, 2, 2, 0), touch(screen, 1, .down, 3, 3, 0),
            touch(screen, -1, .cancel, 0, 0, 1),
        ])
        #expect(out.map(\.slotAndPhase) == ["0 down", "1 down", "2 down", "0 cancel", "2 cancel"])
    }

    @Test func aMouseLeftDragIsOneFinger() {
        var t = EventTranslator(transform: ScreenTransform(panelWidth: 800, panelHeight: 480))
        let out = t.translate([
            .pointerMotion(mouse, dx: -100, dy: 0, timeUsec: 0),
            .pointerButton(mouse, button: MouseFinger.leftButton, pressed: true, timeUsec: 1_000_000),
            .pointerMotion(mouse, dx: 0, dy: -50, timeUsec: 1_500_000),
            .pointerButton(mouse, button: MouseFinger.leftButton, pressed: false, timeUsec: 2_000_000),
        ])
        #expect(out == [
            ev(0, .down, 300, 240, 1), frame(1), ev(0, .motion, 300, 190, 1.5), frame(1.5), ev(0, .up, 300, 190, 2), frame(2),
        ])
    }

    /// The wheel's click is `back`, once per press, and does not end or start a drag:
    /// a left-button drag goes on through it.
    @Test func theWheelClickGoesBackAndLeavesTheDragAlone() {
        var t = EventTranslator(transform: ScreenTransform(panelWidth: 800, panelHeight: 480))
        let out = t.translate([
            .pointerButton(mouse, button: MouseFinger.leftButton, pressed: true, timeUsec: 1_000_000),
            .pointerButton(mouse, button: KeyMap.buttonMiddle, pressed: true, timeUsec: 1_200_000),
            .pointerButton(mouse, button: KeyMap.buttonMiddle, pressed: false, timeUsec: 1_300_000),
            .pointerButton(mouse, button: MouseFinger.leftButton, pressed: false, timeUsec: 2_000_000),
            .key(screen, code: KeyMap.keyEscape, pressed: true, timeUsec: 3_000_000),
            .key(screen, code: KeyMap.keyBackspace, pressed: true, timeUsec: 4_000_000),
        ])
        #expect(out == [
            ev(0, .down, 400, 240, 1), frame(1), .command(.back, time: 1.2), ev(0, .up, 400, 240, 2), frame(2),
            .command(.back, time: 3), .command(.back, time: 4),
        ])
    }

    @Test func unpluggingAMouseMidDragCancels() {
        var t = EventTranslator(transform: ScreenTransform(panelWidth: 800, panelHeight: 480))
        _ = t.translate([.pointerButton(mouse, button: MouseFinger.leftButton, pressed: true, timeUsec: 0)])
        let out = t.translate([
            .pointerButton(mouse, button: MouseFinger.leftButton, pressed: false, timeUsec: 5), .removed(mouse),
        ])
        #expect(out.map(\.slotAndPhase) == ["0 cancel"])
    }

    @Test func wheelDetentsAndKeysBecomeCommands() {
        var t = EventTranslator(transform: ScreenTransform(panelWidth: 800, panelHeight: 480))
        let out = t.translate([
            .wheel(mouse, v120: 60, timeUsec: 1_000_000),
            .wheel(mouse, v120: 60, timeUsec: 1_100_000),
            .wheel(mouse, v120: -240, timeUsec: 1_200_000),
            .key(screen, code: KeyMap.keyRight, pressed: true, timeUsec: 2_000_000),
            .key(screen, code: KeyMap.keyRight, pressed: false, timeUsec: 2_100_000),
            .key(screen, code: KeyMap.keyEnter, pressed: true, timeUsec: 3_000_000),
        ])
        #expect(out == [
            .command(.step(1), time: 1.1), .command(.step(-1), time: 1.2), .command(.step(-1), time: 1.2),
            .command(.step(1), time: 2), .command(.activate, time: 3),
        ])
    }

    @Test func removalCausedReleasesAreFoundInTheBatch() {
        let records: [DeviceRecord] = [
            touch(screen, 0, .motion, 1, 1, 0), touch(screen, 0, .up, 0, 0, 1), touch(second, 0, .up, 0, 0, 1),
            touch(screen, -1, .frame, 0, 0, 1), .removed(screen),
        ]
        #expect(EventTranslator.releasesCausedByRemoval(records) == [1])
    }
}

private extension InputEvent {
    var slotAndPhase: String {
        switch self {
        case let .touch(t): return "\(t.slot) \(t.phase.rawValue)"
        case let .command(c, _): return "\(c)"
        }
    }
}

extension InputEvent {
    /// Only touch samples, frames left out.
    static func samples(_ events: [InputEvent]) -> [TouchEvent] {
        events.compactMap { if case let .touch(t) = $0, t.phase != .frame { return t } else { return nil } }
    }
}
