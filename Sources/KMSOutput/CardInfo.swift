import KioskSeams

/// Plain copies of what the kernel reports about a card (CardProbe fills them in), which the
/// choice rules read and tests build by hand.

/// A connector's link state as the kernel reports it (drmModeConnection).
public enum ConnectorStatus: String, Sendable, Equatable {
    case connected, disconnected, unknown
}

/// One display mode (a copy of drmModeModeInfo's fields that matter for the choice).
public struct ModeInfo: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// Vertical refresh in Hz, from the pixel clock and totals (more precise than `vrefresh`).
    public var refreshHz: Double
    /// DRM_MODE_TYPE_PREFERRED is set.
    public var preferred: Bool
    /// The mode's name as the kernel gives it ("1024x768").
    public var name: String

    public init(width: Int, height: Int, refreshHz: Double, preferred: Bool = false, name: String? = nil) {
        self.width = width
        self.height = height
        self.refreshHz = refreshHz
        self.preferred = preferred
        self.name = name ?? "\(width)x\(height)"
    }

    /// "1024x768@60.00".
    public var summary: String {
        "\(width)x\(height)@\(fixed(refreshHz, 2))"
    }
}

/// One connector (a copy of drmModeConnector and its properties).
public struct ConnectorInfo: Sendable, Equatable {
    public var id: UInt32
    /// DRM_MODE_CONNECTOR_* type.
    public var type: UInt32
    /// The per-type index (1-based), as in "HDMI-A-1".
    public var typeIndex: UInt32
    public var status: ConnectorStatus
    public var widthMM: Int
    public var heightMM: Int
    public var modes: [ModeInfo]
    /// The encoder currently driving it (0 when none).
    public var currentEncoderID: UInt32
    /// The encoders that can drive it.
    public var encoderIDs: [UInt32]
    /// The "panel orientation" property, where the kernel provides one.
    public var panelOrientation: PanelOrientation?

    public init(id: UInt32, type: UInt32, typeIndex: UInt32, status: ConnectorStatus,
                widthMM: Int = 0, heightMM: Int = 0, modes: [ModeInfo] = [],
                currentEncoderID: UInt32 = 0, encoderIDs: [UInt32] = [],
                panelOrientation: PanelOrientation? = nil) {
        self.id = id
        self.type = type
        self.typeIndex = typeIndex
        self.status = status
        self.widthMM = widthMM
        self.heightMM = heightMM
        self.modes = modes
        self.currentEncoderID = currentEncoderID
        self.encoderIDs = encoderIDs
        self.panelOrientation = panelOrientation
    }

    /// The kernel's name: type name, dash, index ("HDMI-A-1", "Virtual-1", "eDP-1").
    public var name: String { "\(ConnectorTypeName.name(ofType: type))-\(typeIndex)" }
    /// A writeback connector captures frames; it is never chosen as a display.
    public var isWriteback: Bool { type == ConnectorTypeName.writebackType }
    /// Connected, a display, and has at least one mode.
    public var isUsable: Bool { status == .connected && !isWriteback && !modes.isEmpty }
}

/// One encoder (a copy of drmModeEncoder).
public struct EncoderInfo: Sendable, Equatable {
    public var id: UInt32
    /// The CRTC it is bound to now (0 when none).
    public var crtcID: UInt32
    /// Bit i set: the card's i-th CRTC (in resource order) can feed it.
    public var possibleCRTCs: UInt32

    public init(id: UInt32, crtcID: UInt32, possibleCRTCs: UInt32) {
        self.id = id
        self.crtcID = crtcID
        self.possibleCRTCs = possibleCRTCs
    }
}

/// Everything probed from one card, copied out of libdrm's structures at once.
public struct CardInfo: Sendable, Equatable {
    /// The device node, "/dev/dri/card0".
    public var path: String
    /// The kernel driver's name ("vkms", "i915", "bochs-drm").
    public var driver: String
    public var connectors: [ConnectorInfo]
    public var encoders: [EncoderInfo]
    /// CRTC ids in resource order (the order `possibleCRTCs` bits refer to).
    public var crtcIDs: [UInt32]

    public init(path: String, driver: String, connectors: [ConnectorInfo], encoders: [EncoderInfo] = [],
                crtcIDs: [UInt32] = []) {
        self.path = path
        self.driver = driver
        self.connectors = connectors
        self.encoders = encoders
        self.crtcIDs = crtcIDs
    }

    /// Names of the connectors a dial could be shown on.
    public var connectedNames: [String] { connectors.filter(\.isUsable).map(\.name) }
}
