import ArgumentParser
import DialCore
import KMSOutput

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
            for c in scan.cards {
                let info = c.probed.info
                let api = { (connector: UInt32, crtc: UInt32) in
                    KMSDisplay.apiDescription(card: c.card, info: info, connectorID: connector, crtcID: crtc, request: kmsAPI)
                }
                print(OutputListing.describe(info, api: api), terminator: "")
            }
            for f in scan.failures { print("(\(f.description))") }
        }
    }
}

/// The text of `list-outputs` for one card: plain data in, lines out.
enum OutputListing {
    /// `api(connector, crtc)`: the KMS API line of a usable connector (nil: none is shown).
    static func describe(_ card: CardInfo, api: ((UInt32, UInt32) -> String)? = nil) -> String {
        var s = "\(card.path): driver \(card.driver)\n"
        s += "  CRTCs: \(card.crtcIDs.map(String.init).joined(separator: ", "))\n"
        for c in card.connectors {
            var line = "  connector \(c.name) (id \(c.id)): \(c.status.rawValue)"
            if c.widthMM > 0 || c.heightMM > 0 { line += ", \(c.widthMM)x\(c.heightMM) mm" }
            if let o = c.panelOrientation { line += ", panel orientation \(o.rawValue)" }
            if c.isWriteback { line += " (writeback)" }
            s += line + "\n"
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
}
