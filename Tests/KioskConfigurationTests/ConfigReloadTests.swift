import Testing
@testable import KioskConfiguration
import KioskTestSupport

@Suite struct ConfigReloadTests {
    /// Loads `old` from a file, rewrites the file as `new` and reloads it: the applied
    /// configuration and its changes, and the outcome of reloading the same file once more.
    private func reload(from old: String, to new: String) throws
        -> (config: KioskConfig, changes: ConfigReload.Changes, again: ConfigReload.Outcome)? {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/config.yaml"
        writeFile(path, old)
        let current = try ConfigLoader.load(path: path)
        writeFile(path, new)
        guard case .apply(let config, let changes) = ConfigReload.reload(path: path, current: current) else {
            Issue.record("not applied")
            return nil
        }
        return (config, changes, ConfigReload.reload(path: path, current: config))
    }

    @Test func validChangeIsAppliedWithWhatChanged() throws {
        guard let (new, changes, _) = try reload(from: "items: [{id: a, label: Old}]\n",
                                                 to: "items: [{id: a, label: New}]\ndisplay: {rotation: 90}\n") else { return }
        #expect(new.items[0].label == "New")
        #expect(changes == [.items, .display])
        #expect(changes.needsOutputRestart)
    }

    /// A change only in a ring below the top is a change of the menu (it used to
    /// compare the top ring's items alone, so such a reload was "no change").
    @Test func aChangeBelowTheTopIsApplied() throws {
        guard let (new, changes, again) = try reload(from: "items:\n  - id: a\n    items: [{id: x, label: Old}]\n",
                                                     to: "items:\n  - id: a\n    items: [{id: x, label: New}]\n") else { return }
        #expect(new.menu.node(at: ["a", "x"])?.item.label == "New")
        #expect(changes == [.items])
        #expect(again == .unchanged)
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
