/// Which card, connector, mode and CRTC the dial is shown on: plain copies of what the kernel
/// reports (KMSOutput fills them in) and the pure rules that choose among them.

/// A connector's link state as the kernel reports it (drmModeConnection).
public enum ConnectorStatus: String, Sendable, Equatable {
    case connected, disconnected, unknown
}

/// How a built-in panel is mounted in its casing (the connector's "panel orientation" property).
public enum PanelOrientation: String, Sendable, Equatable, CaseIterable {
    case normal = "Normal"
    /// The panel's top edge is at the bottom of the casing.
    case upsideDown = "Upside Down"
    /// The panel's left edge is at the top of the casing.
    case leftSideUp = "Left Side Up"
    /// The panel's right edge is at the top of the casing.
    case rightSideUp = "Right Side Up"

    /// The rotation that shows the picture upright in the casing. With the panel's left edge at
    /// the top, the logical top row has to land on panel column 0, which is `threeQuarters`'
    /// mapping (x, y) -> (y, w - 1 - x); the right edge up is the mirror case.
    public var displayRotation: DisplayRotation {
        switch self {
        case .normal: return .none
        case .upsideDown: return .half
        case .leftSideUp: return .threeQuarters
        case .rightSideUp: return .quarter
        }
    }
}

/// The kernel's connector type names, indexed by DRM_MODE_CONNECTOR_* (drm_mode.h); with the
/// per-type index they make the names the kernel logs and sysfs shows ("HDMI-A-1", "Virtual-1").
public enum ConnectorTypeName {
    static let names = ["Unknown", "VGA", "DVI-I", "DVI-D", "DVI-A", "Composite", "SVIDEO", "LVDS",
                        "Component", "DIN", "DP", "HDMI-A", "HDMI-B", "TV", "eDP", "Virtual", "DSI",
                        "DPI", "Writeback", "SPI", "USB"]
    /// DRM_MODE_CONNECTOR_WRITEBACK: a connector that captures frames, never a display.
    public static let writebackType: UInt32 = 18

    /// The name of connector type `type` ("Unknown" for a type newer than this table).
    public static func name(ofType type: UInt32) -> String {
        Int(type) < names.count ? names[Int(type)] : "Unknown"
    }
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
        let centi = Int((refreshHz * 100).rounded())
        let frac = centi % 100
        return "\(width)x\(height)@\(centi / 100).\(frac < 10 ? "0" : "")\(frac)"
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

/// A mode asked for on the command line: `WxH` or `WxH@Hz`.
public struct ModeRequest: Sendable, Equatable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public var refreshHz: Double?

    public init(width: Int, height: Int, refreshHz: Double? = nil) {
        self.width = width
        self.height = height
        self.refreshHz = refreshHz
    }

    /// Parses "1024x768" or "1920x1080@60" (or "@59.94"); nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else { return nil }
        let size = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]), w > 0, h > 0 else { return nil }
        var hz: Double?
        if parts.count == 2 {
            guard let r = Double(parts[1]), r > 0, r < 1000 else { return nil }
            hz = r
        }
        self.init(width: w, height: h, refreshHz: hz)
    }

    public var description: String {
        refreshHz.map { "\(width)x\(height)@\($0)" } ?? "\(width)x\(height)"
    }
}

/// Why no output could be chosen; each case is something a person can fix.
public enum OutputChoiceError: Error, Sendable, Equatable {
    /// No DRM card exists at all.
    case noDevice
    /// `--device` names a card that is not among those found.
    case deviceNotFound(path: String, found: [String])
    /// Cards exist but none has a connected display.
    case noConnectedOutput(cards: [String])
    /// `--connector` names a connector that is absent or not connected.
    case connectorNotFound(name: String, connected: [String])
    /// `--mode` matches none of the connector's modes.
    case modeNotFound(requested: ModeRequest, connector: String, available: [String])
    /// No CRTC can drive the connector.
    case noCRTC(connector: String)
}

/// The pure rules: which card, connector, mode and CRTC.
public enum OutputChoice {
    /// The card at `device` if given, else the first card with a usable connector (when
    /// `connector` is given, the first card that has it connected).
    public static func card(from cards: [CardInfo], device: String?, connector: String? = nil) -> Result<CardInfo, OutputChoiceError> {
        guard !cards.isEmpty else { return .failure(.noDevice) }
        if let device {
            guard let card = cards.first(where: { $0.path == device }) else {
                return .failure(.deviceNotFound(path: device, found: cards.map(\.path)))
            }
            return .success(card)
        }
        if let connector, let card = cards.first(where: { $0.connectedNames.contains(connector) }) {
            return .success(card)
        }
        if let card = cards.first(where: { !$0.connectedNames.isEmpty }) {
            return .success(card)
        }
        return .failure(.noConnectedOutput(cards: cards.map(\.path)))
    }

    /// The connector named `name` (which must be connected), else the first usable one.
    public static func connector(on card: CardInfo, named name: String?) -> Result<ConnectorInfo, OutputChoiceError> {
        let usable = card.connectors.filter(\.isUsable)
        if let name {
            guard let c = usable.first(where: { $0.name == name }) else {
                return .failure(.connectorNotFound(name: name, connected: usable.map(\.name)))
            }
            return .success(c)
        }
        guard let first = usable.first else { return .failure(.noConnectedOutput(cards: [card.path])) }
        return .success(first)
    }

    /// The mode asked for, else the preferred one, else the first (the kernel lists the best
    /// first). With a size but no rate: the preferred mode of that size, else its fastest.
    /// A requested rate matches within 0.5 Hz (59.94 and 60 are distinct modes).
    public static func mode(of connector: ConnectorInfo, request: ModeRequest?) -> Result<ModeInfo, OutputChoiceError> {
        let modes = connector.modes
        guard let request else {
            if let m = modes.first(where: \.preferred) ?? modes.first { return .success(m) }
            return .failure(.modeNotFound(requested: ModeRequest(width: 0, height: 0),
                                          connector: connector.name, available: []))
        }
        let sized = modes.filter { $0.width == request.width && $0.height == request.height }
        let chosen: ModeInfo?
        if let hz = request.refreshHz {
            chosen = sized.filter { abs($0.refreshHz - hz) < 0.5 }
                .min { abs($0.refreshHz - hz) < abs($1.refreshHz - hz) }
        } else {
            chosen = sized.first(where: \.preferred) ?? sized.max { $0.refreshHz < $1.refreshHz }
        }
        guard let chosen else {
            return .failure(.modeNotFound(requested: request, connector: connector.name,
                                          available: modes.map(\.summary)))
        }
        return .success(chosen)
    }

    /// The CRTC already driving the connector (its current encoder's), else the first CRTC one
    /// of its encoders can use that no other encoder holds, else the first it can use at all.
    public static func crtc(for connector: ConnectorInfo, on card: CardInfo) -> Result<UInt32, OutputChoiceError> {
        if connector.currentEncoderID != 0,
           let enc = card.encoders.first(where: { $0.id == connector.currentEncoderID }), enc.crtcID != 0 {
            return .success(enc.crtcID)
        }
        let busy = Set(card.encoders.map(\.crtcID).filter { $0 != 0 })
        var fallback: UInt32?
        for encoderID in connector.encoderIDs {
            guard let enc = card.encoders.first(where: { $0.id == encoderID }) else { continue }
            for (i, crtc) in card.crtcIDs.enumerated() where i < 32 && enc.possibleCRTCs & (1 << UInt32(i)) != 0 {
                if !busy.contains(crtc) { return .success(crtc) }
                if fallback == nil { fallback = crtc }
            }
        }
        if let fallback { return .success(fallback) }
        return .failure(.noCRTC(connector: connector.name))
    }

    /// `--rotate` if given, else what the panel's orientation asks for, else none.
    public static func rotation(requested: DisplayRotation?, panel: PanelOrientation?) -> DisplayRotation {
        requested ?? panel?.displayRotation ?? .none
    }
}

/// The whole choice for one output.
public struct OutputSelection: Sendable, Equatable {
    public var card: CardInfo
    public var connector: ConnectorInfo
    public var mode: ModeInfo
    public var crtcID: UInt32

    public init(card: CardInfo, connector: ConnectorInfo, mode: ModeInfo, crtcID: UInt32) {
        self.card = card
        self.connector = connector
        self.mode = mode
        self.crtcID = crtcID
    }

    /// Applies the four rules in order; the first that fails says why.
    public static func choose(from cards: [CardInfo], device: String?, connector: String?,
                              mode: ModeRequest?) -> Result<OutputSelection, OutputChoiceError> {
        Result { () throws(OutputChoiceError) -> OutputSelection in
            let card = try OutputChoice.card(from: cards, device: device, connector: connector).get()
            let conn = try OutputChoice.connector(on: card, named: connector).get()
            let m = try OutputChoice.mode(of: conn, request: mode).get()
            let crtc = try OutputChoice.crtc(for: conn, on: card).get()
            return OutputSelection(card: card, connector: conn, mode: m, crtcID: crtc)
        }
    }
}
