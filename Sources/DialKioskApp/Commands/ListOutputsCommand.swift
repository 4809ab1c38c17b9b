import ArgumentParser
import DialCore
import KMSOutput
import CECLink

struct ListOutputsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list-outputs",
        abstract: "List DRM cards, connectors, modes and CRTCs."
    )

    @Option(help: "Only this card node (e.g. /dev/dri/card0); default: every card udev knows.")
    var device: String?

    @Option(name: .customLong("kms-api"), help: ArgumentHelp(
        "Show which API run would use with this --kms-api.", valueName: "auto|atomic|legacy"))
    var kmsAPI: KMSAPI.Request = .auto

    func validate() throws {
        if let device, device.isEmpty {
            throw ValidationError("--device needs a DRM card node such as /dev/dri/card0")
        }
    }

    func run() throws {
        try reportingErrors {
            let scan = try CardScan.run(device: device)
            defer { for c in scan.cards { c.card.close() } }
            if scan.cards.isEmpty {
                if let failure = scan.failures.first { throw failure }
                throw OutputChoiceError.noDevice
            }
            let cec = CECAdapterListing.probe()
            for c in scan.cards {
                let info = c.probed.info
                let api = { (connector: UInt32, crtc: UInt32) in
                    KMSDisplay.apiDescription(card: c.card, info: info, connectorID: connector, crtcID: crtc, request: kmsAPI)
                }
                let card = String(info.path.split(separator: "/").last ?? "")
                let extras = { (name: String, id: UInt32) in
                    OutputListing.extras(backlight: Self.backlight(card: card, connector: name),
                                         cec: OutputListing.cecAdapters(cec, card: card, connectorID: id))
                }
                print(OutputListing.describe(info, api: api, extras: extras), terminator: "")
            }
            // Adapters that name no connector (vivid, most USB adapters): listed once, apart.
            for a in cec where a.card == nil {
                print("CEC adapter \(a.path) (\(a.name)): physical address \(a.physicalAddress), no DRM connector named")
            }
            for f in scan.failures { print("(\(f.description))") }
        }
    }
}

/// The text of `list-outputs` for one card: plain data in, lines out.
enum OutputListing {
    /// `api(connector, crtc)`: the KMS API line of a usable connector (nil: none is shown).
    /// `extras(name, id)`: more lines of a connector (its backlight and CEC adapter).
    static func describe(_ card: CardInfo, api: ((UInt32, UInt32) -> String)? = nil,
                         extras: ((String, UInt32) -> [String])? = nil) -> String {
        var s = "\(card.path): driver \(card.driver)\n"
        s += "  CRTCs: \(card.crtcIDs.map(String.init).joined(separator: ", "))\n"
        for c in card.connectors {
            var line = "  connector \(c.name) (id \(c.id)): \(c.status.rawValue)"
            if c.widthMM > 0 || c.heightMM > 0 { line += ", \(c.widthMM)x\(c.heightMM) mm" }
            if let o = c.panelOrientation { line += ", panel orientation \(o.rawValue)" }
            if c.isWriteback { line += " (writeback)" }
            s += line + "\n"
            if !c.isWriteback, let extras { for line in extras(c.name, c.id) { s += "    \(line)\n" } }
            if let crtc = try? OutputChoice.crtc(for: c, on: card).get(), c.isUsable {
                s += "    CRTC \(crtc)\n"
                if let api { s += "    KMS API: \(api(c.id, crtc))\n" }
            }
            for m in c.modes {
                s += "    \(m.summary)\(m.preferred ? " preferred" : "")\n"
            }
        }
        return s
    }

    /// A connector's backlight and CEC lines ("none" where there is none).
    static func extras(backlight: String?, cec: [String]) -> [String] {
        ["backlight: \(backlight ?? "none")", "CEC: \(cec.isEmpty ? "none" : cec.joined(separator: ", "))"]
    }

    /// The adapters that say they belong to connector `connectorID` of `card` ("card0").
    static func cecAdapters(_ adapters: [CECAdapterListing], card: String, connectorID: UInt32) -> [String] {
        adapters.filter { a in a.card.map { "card\($0)" == card } == true && a.connectorID == connectorID }
            .map { "\($0.path) (physical address \($0.physicalAddress))" }
    }
}

extension ListOutputsCommand {
    /// The backlight directory of `connector` on `card`, as `run` would find it (nil: none).
    static func backlight(card: String, connector: String) -> String? {
        switch Backlight.open(sysfsRoot: "/sys", card: card, connector: connector) {
        case .success(let light): return light.directory
        case .failure(let why):
            if case .none = why { return nil }
            return "\(why)"
        }
    }
}
