import Testing
@testable import DialKioskApp

@Suite struct ControlCommandTests {
    @Test func commands() {
        #expect(ControlLine.parse("select tea") == .command(.select(id: "tea")))
        #expect(ControlLine.parse("  select\tdark-lager \r") == .command(.select(id: "dark-lager")))
        #expect(ControlLine.parse("activate") == .command(.activate))
        #expect(ControlLine.parse("show") == .command(.show))
        #expect(ControlLine.parse("hide\r") == .command(.hide))
        #expect(ControlLine.parse("reload") == .command(.reload))
    }

    @Test func blanksAndComments() {
        #expect(ControlLine.parse("") == .blank)
        #expect(ControlLine.parse("   \r") == .blank)
        #expect(ControlLine.parse("# note") == .blank)
    }

    @Test func mistakes() {
        #expect(ControlLine.parse("select") == .invalid("select needs exactly one item id: select <id>"))
        #expect(ControlLine.parse("select a b") == .invalid("select needs exactly one item id: select <id>"))
        #expect(ControlLine.parse("select a;b") == .invalid("'a;b' is not an item id"))
        #expect(ControlLine.parse("reload now") == .invalid("reload takes no arguments"))
        #expect(ControlLine.parse("SHOW") == .invalid("unknown command 'SHOW'; commands: select <id>, activate, show, hide, reload"))
        #expect(ControlLine.parse("rm -rf /") == .invalid("unknown command 'rm'; commands: select <id>, activate, show, hide, reload"))
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
