import DialCore
import DialRender
import Foundation
import KioskReporting

/// Paints each simulated frame and writes it as `frame-NNNNNN.png` (numbered from 1).
final class FrameRecorder {
    private let directory: String
    private let painter: DialPainter
    private var count = 0

    init(directory: String, setup: DialSetup) throws {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("\(directory): cannot create the frames directory: \(error.localizedDescription)", status: .ioError)
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

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
