import DialCore
import DialRender
import Glibc
import KioskSeams
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
    static let goldenDirectory: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast()
        return parts.joined(separator: "/") + "/Golden"
    }()

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

    /// Compares `frame` with the golden picture `name` (each channel within `tolerance`), or
    /// writes it when DIALKIOSK_REGENERATE_GOLDEN is set. The one comparison of every golden suite.
    static func expectGolden(_ frame: PixelBuffer, name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = "\(goldenDirectory)/\(name).png"
        if getenv("DIALKIOSK_REGENERATE_GOLDEN") != nil {
            try PNGWriter.write(frame, to: path)
            return
        }
        let golden: PixelBuffer
        do { golden = try PNGReader.readPixels(path) } catch {
            Issue.record("no golden \(path) (\(error)); run DIALKIOSK_REGENERATE_GOLDEN=1 swift test --filter DialRenderTests",
                         sourceLocation: sourceLocation)
            return
        }
        #expect(golden.width == frame.width && golden.height == frame.height, sourceLocation: sourceLocation)
        guard golden.width == frame.width, golden.height == frame.height else { return }
        var worst: UInt32 = 0, over = 0
        var first: (Int, Int)?
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let a = frame[x, y], b = golden[x, y]
                var d: UInt32 = 0
                for shift in stride(from: UInt32(0), through: 16, by: 8) {
                    let ca = (a >> shift) & 0xFF, cb = (b >> shift) & 0xFF
                    d = max(d, ca > cb ? ca - cb : cb - ca)
                }
                worst = max(worst, d)
                if d > tolerance { over += 1; if first == nil { first = (x, y) } }
            }
        }
        #expect(over == 0, "\(name): \(over) pixels differ by more than \(tolerance) (worst \(worst), first at \(String(describing: first)))",
                sourceLocation: sourceLocation)
    }

    @Test(arguments: GoldenTests.scenes)
    func frameMatchesGolden(scene: Scene) throws {
        let frame = try Self.render(scene)
        try Self.expectGolden(frame, name: scene.name)
    }
}
