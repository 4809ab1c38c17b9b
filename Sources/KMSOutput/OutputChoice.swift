import KioskSeams

/// Which card, connector, mode and CRTC the dial is shown on: pure rules over CardInfo.

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
