import KioskVocabulary
import Testing
@testable import KioskFeatures
import KioskTestSupport

@Suite struct ControlCommandTests {
    @Test func commands() {
        #expect(ControlLine.parse("select tea") == .command(.select(path: ["tea"])))
        #expect(ControlLine.parse("  select\tdark-lager \r") == .command(.select(path: ["dark-lager"])))
        #expect(ControlLine.parse("select drinks/coffee/large") == .command(.select(path: ["drinks", "coffee", "large"])))
        #expect(ControlLine.parse("activate") == .command(.activate))
        #expect(ControlLine.parse("back") == .command(.back))
        #expect(ControlLine.parse("show") == .command(.show))
        #expect(ControlLine.parse("hide\r") == .command(.hide))
        #expect(ControlLine.parse("reload") == .command(.reload))
        #expect(ControlLine.parse("screenshot") == .command(.screenshot))
        #expect(ControlLine.parse("screenshot now") == .invalid("screenshot takes no arguments"))
    }

    @Test func blanksAndComments() {
        #expect(ControlLine.parse("") == .blank)
        #expect(ControlLine.parse("   \r") == .blank)
        #expect(ControlLine.parse("# note") == .blank)
    }

    @Test func mistakes() {
        let usage = "select needs exactly one item id or path: select <id> or select <id>/<id>..."
        #expect(ControlLine.parse("select") == .invalid(usage))
        #expect(ControlLine.parse("select a b") == .invalid(usage))
        #expect(ControlLine.parse("select a;b") == .invalid("'a;b' is not an item id or path"))
        #expect(ControlLine.parse("select drinks/") == .invalid("'drinks/' is not an item id or path"))
        #expect(ControlLine.parse("select /drinks") == .invalid("'/drinks' is not an item id or path"))
        #expect(ControlLine.parse("select a//b") == .invalid("'a//b' is not an item id or path"))
        #expect(ControlLine.parse("select a/b;c") == .invalid("'a/b;c' is not an item id or path"))
        #expect(ControlLine.parse("reload now") == .invalid("reload takes no arguments"))
        #expect(ControlLine.parse("back 2") == .invalid("back takes no arguments"))
        let commands = "commands: select <id or path>, activate, back, show, hide, reload, screen on|off|dim|auto, brightness 0-100, repeat, speech on|off, set <path> text|available|value ..., turn <n>, language <code>, confirm <serial>, screenshot"
        #expect(ControlLine.parse("SHOW") == .invalid("unknown command 'SHOW'; " + commands))
        #expect(ControlLine.parse("rm -rf /") == .invalid("unknown command 'rm'; " + commands))
    }

    @Test func peerPolicy() {
        let owner: UInt32 = 990, group: UInt32 = 991
        #expect(PeerCredentials(pid: 1, uid: 0, gid: 0, groups: []).isAllowed(ownerUID: owner, socketGroup: group))
        #expect(PeerCredentials(pid: 1, uid: 990, gid: 5, groups: []).isAllowed(ownerUID: owner, socketGroup: group))
        #expect(PeerCredentials(pid: 1, uid: 1000, gid: 991, groups: []).isAllowed(ownerUID: owner, socketGroup: group))
        #expect(PeerCredentials(pid: 1, uid: 1000, gid: 1000, groups: [27, 991]).isAllowed(ownerUID: owner, socketGroup: group))
        #expect(!PeerCredentials(pid: 1, uid: 1000, gid: 1000, groups: [27]).isAllowed(ownerUID: owner, socketGroup: group))
        #expect(!PeerCredentials(pid: 1, uid: 65534, gid: 65534, groups: []).isAllowed(ownerUID: owner, socketGroup: group))
    }
}

/// `screen` and `brightness`: the socket and MQTT's set/screen and set/brightness.
@Suite struct ScreenCommandTests {
    @Test func screenAndBrightnessParse() {
        #expect(ControlLine.parse("screen off") == .command(.screen(.off)))
        #expect(ControlLine.parse("screen dim") == .command(.screen(.dim)))
        #expect(ControlLine.parse("brightness 0") == .command(.brightness(0)))
        #expect(ControlLine.parse("brightness 100") == .command(.brightness(100)))
        #expect(ControlLine.parse("brightness 101") == .invalid("brightness needs a whole number from 0 to 100, got '101'"))
        #expect(ControlLine.parse("screen") == .invalid("screen needs one of on, off, dim, auto"))
    }
}
