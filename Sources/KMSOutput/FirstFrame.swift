import KioskSeams

/// A mode's timings as the kernel compares them (drmModeModeInfo without its name and type
/// bits, which differ between the connector's list and a CRTC's state for the same mode).
public struct ModeTiming: Sendable, Equatable {
    /// Pixel clock in kHz.
    public var clock: UInt32
    /// hdisplay, hsync_start, hsync_end, htotal, hskew.
    public var horizontal: [UInt16]
    /// vdisplay, vsync_start, vsync_end, vtotal, vscan.
    public var vertical: [UInt16]
    /// DRM_MODE_FLAG_* (sync polarities, interlace, ...).
    public var flags: UInt32

    public init(clock: UInt32, horizontal: [UInt16], vertical: [UInt16], flags: UInt32 = 0) {
        self.clock = clock
        self.horizontal = horizontal
        self.vertical = vertical
        self.flags = flags
    }
}

/// What the chosen CRTC shows when the program starts (the console's framebuffer, a boot
/// splash, or nothing), read once before the first frame.
public struct RunningCrtc: Sendable, Equatable {
    /// Scanning out: a mode and a framebuffer set, and not switched off (ACTIVE, DPMS).
    public var lit: Bool
    /// The mode set on it, if any.
    public var mode: ModeTiming?
    /// That mode in words ("1024x768@60.00"), for the log.
    public var modeSummary: String?
    /// The connectors routed to it now (their kernel names).
    public var connectors: [String]

    public init(lit: Bool, mode: ModeTiming?, modeSummary: String? = nil, connectors: [String]) {
        self.lit = lit
        self.mode = mode
        self.modeSummary = modeSummary
        self.connectors = connectors
    }
}

extension RunningCrtc {
    /// The names of the connectors whose current encoder feeds `crtcID`, as probed.
    public static func connectors(routedTo crtcID: UInt32, on card: CardInfo) -> [String] {
        card.connectors.filter { c in
            c.currentEncoderID != 0 && card.encoders.contains { $0.id == c.currentEncoderID && $0.crtcID == crtcID }
        }.map(\.name)
    }
}

/// How the first frame reaches the screen: a page flip onto the CRTC as it runs (no modeset,
/// so no black frame and no mode change between the splash or console and the dial), or a
/// modeset, with the reason.
public enum FirstFrame: Sendable, Equatable, CustomStringConvertible {
    case flipOntoRunningMode
    case modeset(because: ModesetReason)

    /// Why the first frame needs a modeset.
    public enum ModesetReason: Sendable, Equatable, CustomStringConvertible {
        /// No mode, no framebuffer, or switched off.
        case crtcOff
        /// The CRTC drives other connectors (or none), not ours.
        case otherConnector(running: [String], chosen: String)
        /// The CRTC runs another mode than the one chosen (`display.mode` and `--connector`
        /// win over what runs).
        case otherMode(running: String, chosen: String)
        /// The flip onto the running mode was refused by the driver.
        case flipRefused(String)
        /// The output was suspended (VT switch, unplug) before the first frame.
        case suspended

        public var description: String {
            switch self {
            case .crtcOff: return "the CRTC is off"
            case .otherConnector(let running, let chosen):
                return running.isEmpty ? "the CRTC drives no connector, not \(chosen)"
                    : "the CRTC drives \(running.joined(separator: ", ")), not \(chosen)"
            case .otherMode(let running, let chosen): return "the CRTC runs \(running), not \(chosen)"
            case .flipRefused(let why): return "the flip onto the running mode was refused: \(why)"
            case .suspended: return "the output was suspended before the first frame"
            }
        }
    }

    /// The log's words: "first frame: flip onto the running mode" or "first frame: modeset,
    /// because the CRTC is off".
    public var description: String {
        switch self {
        case .flipOntoRunningMode: return "first frame: flip onto the running mode"
        case .modeset(let reason): return "first frame: modeset, because \(reason)"
        }
    }

    /// The way for the first frame on `connector` at `mode` (the chosen output, after
    /// `display.mode` and `--connector`) when the CRTC runs `running`: a flip only when the CRTC
    /// is lit, drives exactly that connector, and runs exactly that mode.
    public static func decide(running: RunningCrtc, connector: String, mode: ModeTiming, modeSummary: String) -> FirstFrame {
        guard running.lit, let runningMode = running.mode else { return .modeset(because: .crtcOff) }
        guard running.connectors == [connector] else {
            return .modeset(because: .otherConnector(running: running.connectors, chosen: connector))
        }
        guard runningMode == mode else {
            return .modeset(because: .otherMode(running: running.modeSummary ?? "another mode", chosen: modeSummary))
        }
        return .flipOntoRunningMode
    }
}
