import ArgumentParser
import DialCore
import DialRender
import Testing
@testable import DialKioskApp
@testable import KioskRuntime
@testable import KioskReporting
@testable import KioskConfiguration
import KioskTestSupport

/// `render --path`: a ring below the top, painted as `run` shows it once it has opened.
@Suite struct RenderPathTests {
    static func item(_ id: String, _ hex: UInt32) -> MenuItem {
        MenuItem(id: id, label: id.capitalized, color: RGBColor(hex: hex))
    }

    /// top: drinks (coffee (small, large), tea), snacks
    static let tree = try! MenuTree([
        MenuNode(item("drinks", 0x4AA3E8), children: [
            MenuNode(item("coffee", 0x8E4A2A), children: [MenuNode(item("small", 0xE8B84A)), MenuNode(item("large", 0xE09A4A))]),
            MenuNode(item("tea", 0x6BCB77)),
        ]),
        MenuNode(item("snacks", 0xE05A5A)),
    ])

    @Test(arguments: [["drinks"], ["drinks", "coffee"]] as [MenuPath])
    func renderPathIsTheRestPoseAfterNavigatingThere(ring: MenuPath) throws {
        let setup = DialSetup(config: KioskConfig(), width: 320, height: 240, menu: Self.tree)
        let dial = setup.makeDial()
        var t = 1.0
        dial.advance(to: t)
        // Into the ring the way a person goes: its item to the top, a hub tap, each level.
        for level in ring.prefixes {
            _ = dial.select(path: level, at: t)
            while dial.needsFrame { t += 1.0 / 60; dial.advance(to: t) }
            _ = dial.handle(.command(.activate, time: t))
            while dial.needsFrame { t += 1.0 / 60; dial.advance(to: t) }
        }
        #expect(dial.pose.ring == ring)
        let rendered = setup.pose(rotation: setup.restRotation(ofRing: ring), ring: ring)
        #expect(rendered == dial.pose)
        let run = try setup.makePainter(), render = try setup.makePainter()
        run.paint(dial.pose)
        render.paint(rendered)
        #expect(run.frame.samePixels(as: render.frame))
    }

    @Test func anUnknownPathNamesTheFirstIDThatIsNoRing() {
        func message(_ text: String) -> String {
            do {
                return "accepted \(try RenderCommand.ring(named: text, in: Self.tree))"
            } catch let e as ValidationError {
                return e.message
            } catch {
                return "\(error)"
            }
        }
        #expect(message("drinks/coffee") == "accepted drinks/coffee")
        #expect(message("drinks/milk/large") == "--path 'drinks/milk/large': ring 'drinks' has no item 'milk'")
        #expect(message("food") == "--path 'food': the top ring has no item 'food'")
        #expect(message("drinks/tea") == "--path 'drinks/tea': item 'tea' has no items of its own")
        #expect(message("drinks//tea").hasPrefix("--path 'drinks//tea': expected item ids separated by '/'"))
    }

    @Test func renderRefusesAnUnknownPathWithTheUsageStatus() throws {
        let r = CheckConfigFilesTests().dialkiosk(["render", "--size", "64x64", "--path", "ipa", "--out", "/tmp/never.png"])
        #expect(r.status == ExitStatus.usage.rawValue)
        #expect(r.output.contains("--path 'ipa': item 'ipa' has no items of its own"), "\(r.output)")
    }
}
