import DialCore
import KioskTestSupport
import Testing
@testable import KioskConfiguration

/// The `lock:` section and `display.vt_switch`: defaults, what is read, and every refusal with
/// its line and key.
@Suite struct LockConfigTests {
    static let menu = """
    items:
      - {id: coffee, label: Coffee}
      - {id: tea, label: Tea}
      - id: help
        label: Help
        items:
          - {id: reception, label: Reception}
          - {id: tea, label: Tea here too}

    """

    @Test func defaults() throws {
        let none = try ConfigParser.parse(Self.menu, file: "c.yaml")
        #expect(none.lock == nil)
        #expect(none.display.vtSwitch == false, "VT switching is off unless configured")
        let empty = try ConfigParser.parse(Self.menu + "lock: {}\n", file: "c.yaml")
        #expect(empty.lock == LockSettings())
        #expect(empty.lock?.pinFile == "/etc/dialkiosk/pin")
        #expect(empty.lock?.relockAfterSeconds == 60)
        #expect(empty.lock?.holdSeconds == 3)
        #expect(empty.lock?.allow == [] && empty.lock?.admin == nil)
    }

    @Test func everyKeyIsRead() throws {
        let text = Self.menu + """
        display: {vt_switch: true}
        lock:
          pin_file: /srv/kiosk/pin
          allow: [tea, help, help/reception]
          admin:
            - {id: reload, label: Reload}
            - {id: exit, label: Exit}
          relock_after_seconds: 120
          hold_seconds: 5

        """
        let config = try ConfigParser.parse(text, file: "c.yaml")
        #expect(config.display.vtSwitch)
        let lock = try #require(config.lock)
        #expect(lock.pinFile == "/srv/kiosk/pin")
        // An id names every item with it (tea is on two rings); a path names one.
        #expect(lock.allow == [["tea"], ["help", "tea"], ["help"], ["help", "reception"]])
        #expect(lock.admin?.top.map(\.id) == ["reload", "exit"])
        #expect(lock.relockAfterSeconds == 120)
        #expect(lock.holdSeconds == 5)
    }

    @Test(arguments: [
        ("lock:\n  allow: [coffee, latte]\n", "c.yaml:10: lock.allow[1]: 'latte' names no item of the menu"),
        ("lock:\n  allow:\n    - help/nobody\n", "c.yaml:11: lock.allow[0]: 'help/nobody' names no item of the menu"),
        ("lock:\n  allow: [help/..]\n", "c.yaml:10: lock.allow[0]: 'help/..' names no item"),
        ("lock:\n  allow: [a//b]\n", "c.yaml:10: lock.allow[0]: 'a//b' names no item"),
        ("lock:\n  allow: tea\n", "c.yaml:10: lock.allow: expected a list of item ids or ring paths"),
        ("lock:\n  allow: [{id: tea}]\n", "c.yaml:10: lock.allow[0]: expected an item id or a ring path"),
        ("lock:\n  pin_file: pin\n", "c.yaml:10: lock.pin_file: expected an absolute path"),
        ("lock:\n  relock_after_seconds: 0\n", "c.yaml:10: lock.relock_after_seconds: expected a number of seconds between 5 and 86400"),
        ("lock:\n  hold_seconds: 0.5\n", "c.yaml:10: lock.hold_seconds: expected a number of seconds between 1 and 30"),
        ("lock:\n  hold_seconds: 31\n", "c.yaml:10: lock.hold_seconds:"),
        ("lock:\n  hold_second: 3\n", "c.yaml:10: lock.hold_second: unknown key"),
        ("lock:\n  admin: reload\n", "c.yaml:10: lock.admin: expected a list of items"),
        ("lock:\n  admin:\n    - {id: a}\n    - {id: a}\n", "c.yaml:12: lock.admin[1].id: duplicate item id 'a'"),
        ("lock:\n  admin:\n    - {label: A}\n", "c.yaml:11: lock.admin[0].id: every item needs an id"),
        ("lock: [1]\n", "c.yaml:9: lock:"),
        ("display: {vt_switch: maybe}\n", "c.yaml:9: display.vt_switch:"),
    ])
    func refusals(tail: String, message: String) {
        let got = configErrorMessage(Self.menu + tail, file: "c.yaml")
        #expect(got.hasPrefix(message), "got: \(got)")
    }
}
