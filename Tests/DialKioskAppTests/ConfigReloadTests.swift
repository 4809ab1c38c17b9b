import Testing
@testable import DialKioskApp

@Suite struct ConfigReloadTests {
    @Test func validChangeIsAppliedWithWhatChanged() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/config.yaml"
        writeFile(path, "items: [{id: a, label: Old}]\n")
        let current = try ConfigLoader.load(path: path)
        writeFile(path, "items: [{id: a, label: New}]\ndisplay: {rotation: 90}\n")
        guard case .apply(let new, let changes) = ConfigReload.reload(path: path, current: current) else {
            Issue.record("not applied")
            return
        }
        #expect(new.items[0].label == "New")
        #expect(changes == [.items, .display])
        #expect(changes.needsOutputRestart)
    }

    /// Issue 12: a change only in a ring below the top is a change of the menu (it used to
    /// compare the top ring's items alone, so such a reload was "no change").
    @Test func aChangeBelowTheTopIsApplied() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/config.yaml"
        writeFile(path, "items:\n  - id: a\n    items: [{id: x, label: Old}]\n")
        let current = try ConfigLoader.load(path: path)
        writeFile(path, "items:\n  - id: a\n    items: [{id: x, label: New}]\n")
        guard case .apply(let new, let changes) = ConfigReload.reload(path: path, current: current) else {
            Issue.record("not applied")
            return
        }
        #expect(new.menu.node(at: ["a", "x"])?.item.label == "New")
        #expect(changes == [.items])
        #expect(ConfigReload.reload(path: path, current: new) == .unchanged)
    }

    @Test func brokenFileKeepsTheRunningMenu() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/config.yaml"
        writeFile(path, "items:\n  - id: a\n    color: blu\n")
        let outcome = ConfigReload.reload(path: path, current: .demo)
        #expect(outcome == .keep(ConfigError(file: path, line: 3, key: "items[0].color", message: "expected #RRGGBB, got 'blu'")))
    }

    @Test func missingFileKeepsTheRunningMenu() {
        guard case .keep(let error) = ConfigReload.reload(path: "/nonexistent/c.yaml", current: .demo) else {
            Issue.record("not kept")
            return
        }
        #expect(error.exitStatus == .noInput)
    }

    @Test func sameContentIsUnchanged() {
        #expect(ConfigReload.reload(path: nil, current: .demo) == .unchanged)
        var themed = KioskConfig.demo
        themed.theme.labelPixels = 30
        #expect(ConfigReload.decide(current: .demo, loaded: .success(themed)) == .apply(themed, [.theme]))
        #expect(!ConfigReload.Changes.theme.needsOutputRestart)
    }
}
