import DialCore
import KioskSeams
import Testing
import TouchInput
@testable import DialKioskApp
@testable import KioskRuntime
@testable import KioskConfiguration
@testable import KioskLoop
import KioskTestSupport

/// A whole nested menu, every item of every ring, into each ring and back
/// out, with keys alone (and with a rotary encoder: wheel detents and its push), through the
/// device's frame loop on the virtual display and clock. The presses go in as libinput would
/// copy them (`DeviceRecord`) and through `EventTranslator` and `KeyMap`, as on a kiosk.
@Suite struct KeyboardWalkTests {
    static let config = """
        items:
          - id: drinks
            items:
              - id: coffee
                items:
                  - id: espresso
                  - id: latte
              - id: tea
              - id: water
          - id: food
          - id: help
            items:
              - id: map
              - id: staff
              - id: toilets
          - id: exit

        """

    /// One press of a key, a button, or one wheel detent.
    enum Press: Equatable {
        case key(UInt32)
        case button(UInt32)
        case detent(Double)
    }

    /// How one person moves: the presses that turn forward, activate and go back. Each list is
    /// used in turn, so every key of the map is pressed somewhere on the walk.
    struct Hands {
        var forward: [Press]
        var activate: [Press]
        /// Empty: leave every ring by turning to its back item and activating it.
        var back: [Press]
        private var count: [Int] = [0, 0, 0]
        init(forward: [Press], activate: [Press], back: [Press]) {
            self.forward = forward
            self.activate = activate
            self.back = back
        }
        private mutating func next(_ list: [Press], _ k: Int) -> Press {
            count[k] += 1
            return list[(count[k] - 1) % list.count]
        }
        mutating func turn() -> Press { next(forward, 0) }
        mutating func push() -> Press { next(activate, 1) }
        mutating func goBack() -> Press { next(back, 2) }
    }

    static let keyboard = Hands(forward: [.key(KeyMap.keyRight), .key(KeyMap.keyDown)],
                                activate: [.key(KeyMap.keyEnter), .key(KeyMap.keyKeypadEnter), .key(KeyMap.keySpace)],
                                back: [.key(KeyMap.keyEscape), .key(KeyMap.keyBackspace)])
    /// An encoder: one detent per item (v120 = 120), its push wired as Enter; back is the back
    /// item, or the wheel's click where the encoder reports BTN_MIDDLE.
    static let encoder = Hands(forward: [.detent(120)], activate: [.key(KeyMap.keyEnter)], back: [])
    static let encoderWithClick = Hands(forward: [.detent(120)], activate: [.key(KeyMap.keyEnter)],
                                        back: [.button(KeyMap.buttonMiddle)])
    /// An encoder alone whose push is BTN_MIDDLE, with `input.wheel_click: activate`.
    static let encoderClickActivates = Hands(forward: [.detent(120)], activate: [.button(KeyMap.buttonMiddle)], back: [])

    /// The presses that visit every item of `ring` in order, open each ring on the way and walk
    /// it, and (below the top) leave it: a back key, or where `hands` has none, one more step
    /// forward onto the back item and an activation.
    static func walk(_ tree: MenuTree, ring: MenuPath, hands: inout Hands, presses: inout [Press]) {
        let items = tree.items(ofRing: ring) ?? []
        for (k, item) in items.enumerated() {
            if k > 0 { presses.append(hands.turn()) }
            presses.append(hands.push())
            let child = ring.appending(item.id)
            if tree.items(ofRing: child) != nil {
                walk(tree, ring: child, hands: &hands, presses: &presses)
            }
        }
        guard !ring.isTop else { return }
        if hands.back.isEmpty {
            presses.append(hands.turn())  // from the last item round to the back item
            presses.append(hands.push())
        } else {
            presses.append(hands.goBack())
        }
    }

    /// The presses as libinput's records, `gap` seconds apart (longer than a ring change), each
    /// key and button pressed and released, translated as the kiosk translates them.
    static func inputs(_ presses: [Press], gap: Double = 1.5, wheelClick: WheelClick = .back) -> [InputEvent] {
        let device = InputDeviceID(1)
        var translator = EventTranslator(transform: ScreenTransform(panelWidth: 800, panelHeight: 480))
        translator.wheelClick = wheelClick
        var out: [InputEvent] = []
        for (n, press) in presses.enumerated() {
            let usec = UInt64((1 + Double(n) * gap) * 1_000_000)
            let records: [DeviceRecord]
            switch press {
            case .key(let code):
                records = [.key(device, code: code, pressed: true, timeUsec: usec),
                           .key(device, code: code, pressed: false, timeUsec: usec + 60_000)]
            case .button(let code):
                records = [.pointerButton(device, button: code, pressed: true, timeUsec: usec),
                           .pointerButton(device, button: code, pressed: false, timeUsec: usec + 60_000)]
            case .detent(let v120):
                records = [.wheel(device, v120: v120, timeUsec: usec)]
            }
            out += translator.translate(records)
        }
        return out
    }

    struct Walked {
        var selected: [MenuPath] = []
        var activated: [MenuPath] = []
        var opened: [MenuPath] = []
        var closed: [MenuPath] = []
        var endsOn: MenuPath?
        var ending: FrameLoop.Ending = .quiet
    }

    /// Runs `presses` through the frame loop on the virtual display with the menu `config`.
    static func run(_ presses: [Press], config text: String = config) throws -> Walked {
        let config = try ConfigParser.parse(text, file: "walk.yaml")
        let dial = DialSetup(config: config, width: 800, height: 480).makeDial()
        let events = inputs(presses, wheelClick: config.input.wheelClick)
        var walked = Walked()
        var iterator = events.makeIterator()
        let result = try VirtualRun(hz: 60).run(dial, until: 10_000) { iterator.next() }
        for event in result.events {
            switch event {
            case .selected(_, let path, _): walked.selected.append(path)
            case .activated(_, let path, _): walked.activated.append(path)
            case .opened(let path, _): walked.opened.append(path)
            case .closed(let path, _): walked.closed.append(path)
            case .rest, .value: break
            }
        }
        walked.endsOn = dial.selectedPath
        walked.ending = result.ending
        return walked
    }

    static var tree: MenuTree { try! ConfigParser.parse(config, file: "walk.yaml").menu }

    /// Every item's path, every ring's path, every leaf's path, in walking order.
    static var everyItem: [MenuPath] { tree.everyItem.map(\.path) }
    static var rings: [MenuPath] { tree.ringPaths.filter { !$0.isTop } }
    static var leaves: [MenuPath] { everyItem.filter { tree.items(ofRing: $0) == nil } }

    static let hands = ["keyboard": keyboard, "encoder": encoder, "encoder with click": encoderWithClick,
                        "encoder alone, click activates": encoderClickActivates]

    @Test(arguments: ["keyboard", "encoder", "encoder with click", "encoder alone, click activates"])
    func aWholeNestedMenuIsWalkedWithoutTouch(hands name: String) throws {
        var hands = try #require(Self.hands[name])
        var presses: [Press] = []
        Self.walk(Self.tree, ring: .top, hands: &hands, presses: &presses)
        // Home: back to the top ring's first item from its last.
        presses.append(.key(KeyMap.keyHome))
        let clickActivates = name.hasSuffix("click activates")
        let walked = try Self.run(presses, config: Self.config + (clickActivates ? "input:\n  wheel_click: activate\n" : ""))
        #expect(walked.ending == .quiet)
        let missing = Self.everyItem.filter { !walked.selected.contains($0) }
        #expect(missing.isEmpty, "never selected: \(missing); selected: \(walked.selected)")
        #expect(walked.activated == Self.leaves, "activated \(walked.activated)")
        #expect(walked.opened == Self.rings, "opened \(walked.opened)")
        #expect(Set(walked.closed) == Set(Self.rings) && walked.closed.count == Self.rings.count, "closed \(walked.closed)")
        #expect(walked.endsOn == ["drinks"], "ends on \(String(describing: walked.endsOn))")
        if name == "encoder" || clickActivates {
            // Left by its back item: each ring's back slot was selected before it closed.
            let backs = Self.rings.map { $0.appending(MenuPath.backID) }
            #expect(backs.allSatisfy(walked.selected.contains), "\(walked.selected)")
        }
    }

    /// The walk's own premise: the presses cover every key the map gives the dial.
    @Test func theKeyboardWalkPressesEveryKey() {
        var hands = Self.keyboard
        var presses: [Press] = []
        Self.walk(Self.tree, ring: .top, hands: &hands, presses: &presses)
        let all = Self.keyboard.forward + Self.keyboard.activate + Self.keyboard.back
        #expect(all.allSatisfy(presses.contains), "\(presses)")
    }

    @Test func wheelClickIsBackOrActivate() throws {
        let plain = try ConfigParser.parse("input:\n  seat: seat0\n", file: "x")
        #expect(plain.input.wheelClick == .back)
        let config = try ConfigParser.parse("input:\n  wheel_click: activate\n", file: "x")
        #expect(config.input.wheelClick == .activate)
        #expect(configErrorMessage("input:\n  wheel_click: push\n", file: "c.yaml")
                == "c.yaml:2: input.wheel_click: expected one of back, activate, got 'push'")
    }

    /// Left and Up step back, as the key map says: from the first item they reach the last.
    @Test func leftAndUpTurnBackwards() throws {
        let walked = try Self.run([.key(KeyMap.keyLeft), .key(KeyMap.keyUp), .detent(-120), .key(KeyMap.keyEnter)])
        #expect(walked.selected == [["exit"], ["help"], ["food"]], "\(walked.selected)")
        #expect(walked.activated == [["food"]])
    }
}
