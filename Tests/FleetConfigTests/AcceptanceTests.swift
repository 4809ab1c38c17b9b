import KioskConfiguration
import Testing
@testable import FleetConfig

@Suite struct AcceptanceTests {
    let local: KioskConfig = {
        var config = KioskConfig()
        config.display.connector = "HDMI-A-1"
        config.fleet = FleetSettings(trustedKeys: ["/etc/dialkiosk/fleet.pub"])
        return config
    }()

    func decide(_ bytes: [UInt8], highest: UInt64 = 0, client: String = "kiosk-a", allowCommands: Bool = false) throws
        -> Result<FleetAcceptance.Accepted, FleetRefusal> {
        FleetAcceptance.decide(bytes, trustedKeys: [publicKey()], highestSerial: highest, clientID: client, local: local,
                               allowCommands: allowCommands)
    }

    @Test func takesASignedMenuAndKeepsTheLocalHardware() throws {
        let accepted = try decide(try signed(menuText, serial: 4)).get()
        #expect(accepted.config.items.map(\.id) == ["coffee", "tea"])
        #expect(accepted.config.display.connector == "HDMI-A-1")
        #expect(accepted.config.fleet == local.fleet)
    }

    @Test func refusesReplaysAndOldSerials() throws {
        let bytes = try signed(menuText, serial: 4)
        #expect(try decide(bytes, highest: 4) == .failure(.replay(serial: 4, highest: 4)))
        #expect(try decide(bytes, highest: 9) == .failure(.replay(serial: 4, highest: 9)))
        #expect(try decide(bytes, highest: 3).map(\.bundle.serial) == .success(4))
    }

    @Test func targetsNameTheKiosksThatTakeIt() throws {
        let bytes = try signed(menuText, serial: 4, targets: ["kiosk-b", "kiosk-c"])
        #expect(try decide(bytes, client: "kiosk-a") == .failure(.notForThisKiosk(clientID: "kiosk-a")))
        #expect(try decide(bytes, client: "kiosk-c").map(\.bundle.serial) == .success(4))
    }

    @Test func localOnlySectionsAreRefusedWhole() throws {
        for section in ["display:\n  connector: DP-1\n", "input:\n  seat: seat1\n", "mqtt:\n  host: evil\n",
                        "fleet:\n  trusted_keys: [/tmp/k]\n", "remote:\n  port: 5900\n", "power:\n  x: 1\n"] {
            let name = String(section.prefix { $0 != ":" })
            let result = try decide(try signed(menuText + section, serial: 4))
            #expect(result == .failure(.section("\(name) (bundle-4.yaml:7)")), "\(name)")
        }
    }

    @Test func itemCommandsNeedAllowCommands() throws {
        let text = "items:\n  - id: door\n    label: Door\n    command: [/usr/bin/true]\n"
        let bytes = try signed(text, serial: 2)
        #expect(try decide(bytes) == .failure(.commands(item: "door")))
        #expect(try decide(bytes, allowCommands: true).map(\.bundle.serial) == .success(2))
    }

    @Test func anInvalidConfigurationIsRefusedLocated() throws {
        let text = "items:\n  - id: coffee\n    label: Coffee\n    color: blu\n"
        guard case .failure(.invalid(let reason)) = try decide(try signed(text, serial: 2)) else {
            Issue.record("taken"); return
        }
        #expect(reason.hasPrefix("bundle-2.yaml:4: items[0].color:"), "\(reason)")
    }

    @Test func aBadSignatureIsRefusedBeforeTheSerialOrContent() throws {
        // Other key, old serial, bad content: the signature is what is reported.
        let bytes = try signed("display: {}\n", serial: 1, key: otherKey)
        #expect(try decide(bytes, highest: 5) == .failure(.unknownKey(signedBy: otherKey.publicKey.keyIDText, trusted: [testKey.publicKey.keyIDText])))
    }

    /// A pushed bundle, signed without --allow-commands, on a kiosk with allow_commands false:
    /// every spelling of ALSA's pipe in the audio device is refused, located, before anything
    /// opens it; so is a file the device would write (a push never names one).
    @Test func aPushedDeviceNameIsAllowListed() throws {
        for device in ["file:'\\\\174touch /tmp/ran'", "file:'\\\\x7ctouch /tmp/ran'", "|touch /tmp/ran", "file:\\\"|x\\\"",
                       "plughw:$(x),0", "hw:0, 0", "file:'/tmp/out.raw',raw"] {
            let text = menuText + "accessibility:\n  sound_cues: on\n  device: \"\(device)\"\n"
            guard case .failure(.invalid(let reason)) = try decide(try signed(text, serial: 2)) else {
                Issue.record("\(device): taken"); continue
            }
            #expect(reason.hasPrefix("bundle-2.yaml:9: accessibility.device: "), "\(device): \(reason)")
            #expect(reason.contains("is not a device name the kiosk opens"), "\(reason)")
        }
        let fine = menuText + "accessibility:\n  sound_cues: on\n  device: plughw:1,0\n"
        #expect(try decide(try signed(fine, serial: 2)).map(\.config.accessibility?.device) == .success("plughw:1,0"))
    }

    /// A font family goes to fontconfig's name parser: only plain names (or a file's path).
    @Test func aPushedFontIsAPlainFamilyOrAPath() throws {
        for font in ["DejaVu Sans:file=/etc/passwd", "Sans-12", "a\\\\b", "x,y"] {
            guard case .failure(.invalid(let reason)) = try decide(try signed(menuText + "theme:\n  font: \"\(font)\"\n", serial: 2)) else {
                Issue.record("\(font): taken"); continue
            }
            #expect(reason.hasPrefix("bundle-2.yaml:8: theme.font: expected a font file's absolute path or a family name"), "\(reason)")
        }
        #expect(try decide(try signed(menuText + "theme:\n  font: DejaVu Sans\n", serial: 2)).map { _ in true } == .success(true))
    }
}
