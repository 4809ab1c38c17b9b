import DialCore
import DialRender
import KioskReporting
import LinuxSystem
import KioskRuntime

/// Paints each simulated frame and writes it as `frame-NNNNNN.png` (numbered from 1).
final class FrameRecorder {
    private let directory: String
    private let painter: DialPainter
    private var count = 0

    init(directory: String, setup: DialSetup) throws {
        if let failure = Self.makeDirectories(directory) {
            throw CommandFailure("\(directory): cannot create the frames directory: \(failure)", status: .ioError)
        }
        self.directory = directory
        painter = try setup.makePainter()
    }

    func write(_ pose: DialPose) throws {
        count += 1
        painter.paint(pose)
        let name = String(count).leftPadded(to: 6)
        try PNGWriter.write(painter.frame, to: "\(directory)/frame-\(name).png")
    }
}

extension FrameRecorder {
    /// mkdir -p: each missing directory of `path` made (0755); the first failure's errno, or nil.
    static func makeDirectories(_ path: String) -> Errno? { FilePaths.makeDirectories(path) }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
