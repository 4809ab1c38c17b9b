import DialCore
import DialRender
import Glibc
import KioskSeams
import KioskTestSupport
import Testing

/// Whole frames compared with PNGs committed under Tests/DialRenderTests/Golden, channel by
/// channel with a small tolerance (rounding differences, not visible changes).
///
/// After an intended change of the look, regenerate them and look at every picture before
/// committing:
///
///     DIALKIOSK_REGENERATE_GOLDEN=1 swift test --filter DialRenderTests.GoldenTests
@Suite struct GoldenTests {
    static let tolerance: UInt32 = 3
    static let goldenDirectory = KioskTestSupport.goldenDirectory(beside: #filePath)

    struct Scene: CustomTestStringConvertible, Sendable {
        var name: String
        var width: Int, height: Int
        var items: [MenuItem]
        var angle: Double
        var rotation: DisplayRotation = .none
        var showProgress: Double?
        var testDescription: String { name }
    }

    static let scenes: [Scene] = [
        Scene(name: "demo-800x480", width: 800, height: 480, items: DemoMenu.items, angle: 0.35),
        Scene(name: "six-320x240-rot90-showing", width: 320, height: 240, items: DemoMenu.numbered(6), angle: 0,
              rotation: .quarter, showProgress: 0.6),
        Scene(name: "scripts-400x400", width: 400, height: 400, items: [
            MenuItem(id: "ar", label: "قهوة عربية", color: RGBColor(hex: 0x3E7CB1)),
            MenuItem(id: "he", label: "שלום", color: RGBColor(hex: 0xE8B84A)),
            MenuItem(id: "hi", label: "चाय मसाला", color: RGBColor(hex: 0xC8552E)),
            MenuItem(id: "en", label: "AVAST Waffle", color: RGBColor(hex: 0x6BCB77)),
            MenuItem(id: "long", label: "Extraordinarily long label", color: RGBColor(hex: 0xA77BE0)),
        ], angle: -0.2),
    ]

    static func render(_ s: Scene) throws -> PixelBuffer {
        let logical = s.rotation.logicalSize(panelWidth: s.width, panelHeight: s.height)
        let builder = PoseBuilder(layout: DialLayout(count: s.items.count),
                                  geometry: .fitting(width: logical.width, height: logical.height, count: s.items.count))
        let pose = s.showProgress.map {
            builder.pose(rotation: s.angle, visibility: .showing(since: 0), time: $0 * builder.reveal.totalDuration)
        } ?? builder.pose(rotation: s.angle, visibility: .shown, time: 0)
        let painter = try DialPainter(items: s.items, width: logical.width, height: logical.height)
        painter.paint(pose)
        return painter.frame.rotated(s.rotation)
    }

    /// Compares `frame` with the golden picture `name` of this target (KioskTestSupport's
    /// `expectGolden`, at `tolerance`).
    static func expectGolden(_ frame: PixelBuffer, name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try KioskTestSupport.expectGolden(frame, name: name, directory: goldenDirectory, tolerance: tolerance, sourceLocation: sourceLocation)
    }

    @Test(arguments: GoldenTests.scenes)
    func frameMatchesGolden(scene: Scene) throws {
        let frame = try Self.render(scene)
        try Self.expectGolden(frame, name: scene.name)
    }
}
