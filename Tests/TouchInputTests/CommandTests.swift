import Testing
@testable import KioskSeams
@testable import TouchInput

@Suite struct WheelClickTests {
    /// `input.wheel_click: activate` makes the click activate, so an encoder whose
    /// push is BTN_MIDDLE reaches everything alone (back through the back items).
    @Test func theWheelClickCanActivate() {
        #expect(KeyMap.command(code: 274, pressed: true, wheelClick: .activate) == .activate)
        #expect(KeyMap.command(code: 274, pressed: false, wheelClick: .activate) == nil)
        #expect(KeyMap.command(code: 1, pressed: true, wheelClick: .activate) == .back)
        var translator = EventTranslator(transform: ScreenTransform(panelWidth: 800, panelHeight: 480))
        translator.wheelClick = .activate
        let device = InputDeviceID(3)
        let out = translator.translate([.pointerButton(device, button: 274, pressed: true, timeUsec: 2_000_000),
                                        .pointerButton(device, button: 274, pressed: false, timeUsec: 2_100_000),
                                        .key(device, code: 274, pressed: true, timeUsec: 3_000_000)])
        #expect(out == [.command(.activate, time: 2), .command(.activate, time: 3)])
    }
}

@Suite struct WheelAccumulatorTests {
    @Test func plainDetentsStepOnce() {
        var wheel = WheelAccumulator()
        #expect(wheel.add(120) == 1)
        #expect(wheel.add(-120) == -1)
        #expect(wheel.add(240) == 2)
    }

    @Test func highResolutionFractionsAddUp() {
        var wheel = WheelAccumulator()
        #expect([wheel.add(30), wheel.add(30), wheel.add(30), wheel.add(30)] == [0, 0, 0, 1])
        #expect([wheel.add(-40), wheel.add(-40), wheel.add(-40)] == [0, 0, -1])
    }

    @Test func reversalDropsTheUnfinishedPart() {
        var wheel = WheelAccumulator()
        #expect(wheel.add(90) == 0)
        #expect(wheel.add(-60) == 0)
        #expect(wheel.add(-60) == -1)  // 90 forgotten: -60 - 60 is a whole detent back
    }

    @Test func zeroAndNonFiniteAreIgnored() {
        var wheel = WheelAccumulator()
        #expect(wheel.add(0) == 0)
        #expect(wheel.add(.nan) == 0)
        #expect(wheel.add(60) == 0)
        #expect(wheel.add(60) == 1)
    }
}

@Suite struct MouseFingerTests {
    let transform = ScreenTransform(panelWidth: 800, panelHeight: 480)

    @Test func hoveringMovesWithoutEvents() {
        var mouse = MouseFinger(transform: transform)
        #expect(mouse.position == Point(x: 400, y: 240))
        #expect(mouse.move(dx: 10, dy: -5) == nil)
        #expect(mouse.position == Point(x: 410, y: 235))
    }

    @Test func leftDragIsOneFinger() {
        var mouse = MouseFinger(transform: transform)
        #expect(mouse.button(MouseFinger.leftButton, pressed: true) == .down(Point(x: 400, y: 240)))
        #expect(mouse.button(MouseFinger.leftButton, pressed: true) == nil)
        #expect(mouse.move(dx: 1000, dy: 0) == .motion(Point(x: 799, y: 240)))
        #expect(mouse.move(dx: 5, dy: 0) == nil)  // pinned at the edge: no motion
        #expect(mouse.button(MouseFinger.leftButton, pressed: false) == .up(Point(x: 799, y: 240)))
        #expect(mouse.state == .hovering)
    }

    @Test func otherButtonsDoNothing() {
        var mouse = MouseFinger(transform: transform)
        #expect(mouse.button(0x111, pressed: true) == nil)  // BTN_RIGHT
        #expect(mouse.state == .hovering)
    }

    @Test func absoluteMotionIsTurnedLikeATouch() {
        var mouse = MouseFinger(transform: ScreenTransform(panelWidth: 800, panelHeight: 480, rotation: .half))
        _ = mouse.moveAbsolute(panelX: 700, panelY: 80)
        #expect(mouse.position == Point(x: 100, y: 400))
    }
}
