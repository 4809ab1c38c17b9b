import DialRender
import KioskSeams

/// Where a painted frame goes besides the scanout copy: the remote view takes the painter's
/// logical frame and that frame's damage (nil: all) right after each paint, in the loop's turn.
/// Scenes hold the tap, so one built before the view exists (the first) feeds it too.
package final class FrameTap {
    var consumer: ((PixelBuffer, [PixelRect]?) -> Void)?
    /// The "being viewed" mark is on the glass (drawn over the scanout copy, `ViewMark`).
    var mark: () -> Bool = { false }
}
