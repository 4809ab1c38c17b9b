import DialCore
import KioskLoop

/// A test's stand-in for the dial: what a fake does not script itself is a dial at rest on the
/// first of four items that has no ring to return from, no slot to select and nothing to fan out.
package protocol StandInDial: DialDriving {}

extension StandInDial {
    package func advance(to time: Double) -> [DialEvent] { [] }
    package var needsFrame: Bool { false }
    package var selectedIndex: Int? { 0 }
    package var selectedPath: MenuPath? { nil }
    package func returnToTop(at time: Double) -> [DialEvent] { [] }
    package func select(path: MenuPath, at time: Double) -> [DialEvent]? { nil }
    package func setShown(_ shown: Bool, at time: Double) {}
    package var pose: DialPose { standInPose() }

    /// Four items on a 64x48 frame, the ring turned by `rotation`.
    package func standInPose(rotation: Double = 0, time: Double = 0) -> DialPose {
        let g = DialGeometry.fitting(width: 64, height: 48, count: 4)
        return PoseBuilder(layout: DialLayout(count: 4), geometry: g).pose(rotation: rotation, visibility: .shown, time: time)
    }
}
