import DialRender
import Glibc
import Testing

/// The one comparison of every golden suite: `frame` against the PNG `name` in `directory`, each
/// channel within `tolerance` (rounding differences, not visible changes), or written there
/// instead when DIALKIOSK_REGENERATE_GOLDEN is set (look at every picture before committing).
package func expectGolden(_ frame: PixelBuffer, name: String, directory: String, tolerance: UInt32 = 3,
                          sourceLocation: SourceLocation = #_sourceLocation) throws {
    let path = "\(directory)/\(name).png"
    if getenv("DIALKIOSK_REGENERATE_GOLDEN") != nil {
        try PNGWriter.write(frame, to: path)
        return
    }
    let golden: PixelBuffer
    do { golden = try PNGReader.readPixels(path) } catch {
        Issue.record("no golden \(path) (\(error)); run DIALKIOSK_REGENERATE_GOLDEN=1 swift test --filter <the suite>",
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

/// The folder `Golden` beside the test file `filePath` (pass `#filePath`): where a target keeps its golden pictures.
package func goldenDirectory(beside filePath: String) -> String {
    var parts = filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast()
    return parts.joined(separator: "/") + "/Golden"
}
