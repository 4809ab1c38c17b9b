import DialCore
import KioskSeams

/// `run --display`: `virtual:WxH@Hz` (the rate optional, 60 by default), a display with no
/// device whose flips a timer on CLOCK_MONOTONIC paces at that rate. Without the option `run`
/// drives a DRM card. The CLI parses the text (its errors are usage errors).
package struct VirtualDisplaySpec: Equatable, CustomStringConvertible {
    package var width: Int
    package var height: Int
    package var refreshHz: Double

    package init(width: Int, height: Int, refreshHz: Double = 60) {
        self.width = width
        self.height = height
        self.refreshHz = refreshHz
    }

    package var description: String { "virtual:\(width)x\(height)@\(fixed(refreshHz, 3, trimmed: true))" }
}
