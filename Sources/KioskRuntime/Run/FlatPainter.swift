import DialCore
import KioskSeams

/// `--painter flat`: one colour per frame, changing with the ring's rotation. It costs one
/// write of the buffer, so the flip rate it reaches is the display path's own (modeset, page
/// flips, events, the loop), apart from how fast the dial painter is on the machine.
package enum FlatPainter {
    static func paint(_ pose: DialPose, into target: FrameTarget) {
        let level = UInt32(Int((pose.rotation * 40).rounded()) & 0xFF)
        let color = 0x20_00_00 | level << 8 | (0xFF - level)
        for y in 0..<target.height {
            (target.base + y * target.stride).initializeMemory(as: UInt32.self, repeating: color, count: target.width)
        }
    }
}

/// Which painter `run` uses.
package enum PainterChoice: String, CaseIterable, Sendable {
    /// DialRender's dial painter plus the rotated copy.
    case dial
    /// FlatPainter: a display-path throughput check.
    case flat
}
