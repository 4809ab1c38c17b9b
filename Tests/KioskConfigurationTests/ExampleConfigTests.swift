import DialCore
import Testing
@testable import KioskConfiguration
import KioskTestSupport

/// The example shipped as /etc/dialkiosk/config.yaml must be accepted as it is.
@Suite struct ExampleConfigTests {
    static let examplePath: String = {
        // Tests/DialKioskAppTests/ExampleConfigTests.swift -> repository root.
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/systemd/dialkiosk.yaml"
    }()

    @Test func exampleIsValidAndNotTheDemo() throws {
        let config = try ConfigLoader.load(path: Self.examplePath)
        #expect(config.items.map(\.id) == ["coffee", "tea", "water", "juice", "soup", "help"])
        #expect(config.items[2].command == ["/usr/bin/logger", "-t", "dialkiosk-demo", "water chosen"])
        #expect(config.behaviour.defaultItem == "coffee")
        #expect(config.behaviour.returnAfter == 60)
        #expect(config.physics == KioskConfig.Physics())
        // The example shows a two-level menu.
        #expect(config.menu.ringPaths == [.top, ["coffee"]])
        #expect(config.menu.items(ofRing: ["coffee"])?.map(\.id) == ["espresso", "latte", "americano"])
        #expect(config.menu.node(at: ["coffee", "latte"])?.item.command == ["/usr/bin/logger", "-t", "dialkiosk-demo", "latte chosen"])
        #expect(ConfigSummary.line(config, file: "x.yaml").hasPrefix("x.yaml: OK: 6 items on the top ring, 9 in 2 rings; 2 with a command;"))
    }
}
