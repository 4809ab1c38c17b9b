import DialCore
import KioskConfiguration

/// Whether a kiosk takes a bundle: pure functions of the bundle's bytes and plain data (the
/// trusted keys, the highest serial ever taken, the client id, the local configuration), with
/// the signature check passed in so tests can count or fake it.
package enum FleetAcceptance {
    /// Checks a signature: (signature, message, public key) -> valid.
    package typealias Verifier = @Sendable ([UInt8], [UInt8], [UInt8]) -> Bool

    /// libsodium's Ed25519 check; a library that cannot be loaded verifies nothing.
    package static let sodiumVerifier: Verifier = { signature, message, key in
        (try? Sodium.verify(signature: signature, message: message, publicKey: key)) ?? false
    }

    /// A bundle taken: what it carried, and the configuration it makes with the local file's.
    package struct Accepted: Equatable {
        package var bundle: ConfigBundle
        package var config: KioskConfig
        /// The SHA-256s (hex) of the icon blobs its configuration names.
        package var blobs: [String]
    }

    /// Where `sign` and `verify` check icons named by their SHA-256 (the kiosk's state folder
    /// holds the real ones).
    package static let defaultBlobDirectory = "/var/lib/dialkiosk/blobs"


    /// The bundle in `bytes` when it is signed by one of `trustedKeys`: size first, then the
    /// strict parse, then the key by its id, the signature of the text (of its BLAKE2b-512 when
    /// prehashed) and the global signature over signature || trusted comment, as `minisign -V`.
    package static func verify(_ bytes: [UInt8], trustedKeys: [MinisignPublicKey], verifier: Verifier = sodiumVerifier)
        -> Result<ConfigBundle, FleetRefusal> {
        let bundle: ConfigBundle
        switch ConfigBundle.parse(bytes) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let parsed): bundle = parsed
        }
        let signature = bundle.signature
        guard let key = trustedKeys.first(where: { $0.keyID == signature.keyID }) else {
            return .failure(.unknownKey(signedBy: signature.keyIDText, trusted: trustedKeys.map(\.keyIDText)))
        }
        let message: [UInt8]
        if signature.prehashed {
            guard let digest = try? Sodium.blake2b(bundle.config, length: 64) else { return .failure(.signature(keyID: key.keyIDText)) }
            message = digest
        } else {
            message = bundle.config
        }
        guard verifier(signature.signature, message, key.key) else { return .failure(.signature(keyID: key.keyIDText)) }
        guard verifier(signature.globalSignature, signature.signature + Array(signature.trustedComment.utf8), key.key) else {
            return .failure(.trustedComment(keyID: key.keyIDText))
        }
        return .success(bundle)
    }

    /// The whole decision for a bundle arriving: signed by a trusted key, serial above
    /// `highestSerial`, meant for `clientID` (or every kiosk), and content a pushed
    /// configuration may have (`content`).
    package static func decide(_ bytes: [UInt8], trustedKeys: [MinisignPublicKey], highestSerial: UInt64, clientID: String,
                              local: KioskConfig, allowCommands: Bool, blobDirectory: String = defaultBlobDirectory,
                              verifier: Verifier = sodiumVerifier)
        -> Result<Accepted, FleetRefusal> {
        let bundle: ConfigBundle
        switch verify(bytes, trustedKeys: trustedKeys, verifier: verifier) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let verified): bundle = verified
        }
        guard bundle.serial > highestSerial else { return .failure(.replay(serial: bundle.serial, highest: highestSerial)) }
        guard bundle.targets.isEmpty || bundle.targets.contains(clientID) else { return .failure(.notForThisKiosk(clientID: clientID)) }
        return content(bundle, local: local, allowCommands: allowCommands, blobDirectory: blobDirectory).map {
            Accepted(bundle: bundle, config: $0, blobs: blobs(in: $0, directory: blobDirectory))
        }
    }

    /// The file name a pushed configuration's errors are located in: `bundle-42.yaml:14: ...`.
    package static func fileName(serial: UInt64) -> String { "bundle-\(serial).yaml" }

    /// The configuration a verified bundle makes: its text parsed with `check-config`'s checks,
    /// only the sections a push may carry, no item command unless allowed; the result keeps
    /// the local file's display, input, mqtt and fleet sections.
    /// Icons named `sha256:HEX` are read from `blobDirectory`.
    package static func content(_ bundle: ConfigBundle, local: KioskConfig, allowCommands: Bool,
                               blobDirectory: String = defaultBlobDirectory) -> Result<KioskConfig, FleetRefusal> {
        content(config: bundle.config, serial: bundle.serial, local: local, allowCommands: allowCommands, blobDirectory: blobDirectory)
    }

    /// `content` of a text about to be signed as `serial` (what `config sign` checks).
    package static func content(config bytes: [UInt8], serial: UInt64, local: KioskConfig, allowCommands: Bool,
                               blobDirectory: String = defaultBlobDirectory) -> Result<KioskConfig, FleetRefusal> {
        let file = fileName(serial: serial)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(.invalid("\(file):\(ConfigLoader.firstInvalidLine(bytes)): not UTF-8 text"))
        }
        let pushed: KioskConfig
        do {
            for (key, line) in try ConfigParser.topLevelKeys(text, file: file) where !ConfigParser.pushableSections.contains(key) {
                return .failure(.section(key + (line.map { " (\(file):\($0))" } ?? "")))
            }
            // A bundle comes over the broker: the local file's mqtt: section serves its topics.
            pushed = try ConfigParser.parse(text, file: file, brokerElsewhere: true, blobDirectory: blobDirectory)
        } catch let error as ConfigError {
            return .failure(.invalid(error.description))
        } catch {
            return .failure(.invalid("\(file): \(error)"))
        }
        if !allowCommands, let item = firstCommand(in: pushed.menu) { return .failure(.commands(item: item)) }
        return .success(merged(local: local, pushed: pushed))
    }

    /// `pushed` with the local file's sections that never travel.
    package static func merged(local: KioskConfig, pushed: KioskConfig) -> KioskConfig {
        var config = pushed
        config.display = local.display
        config.input = local.input
        config.mqtt = local.mqtt
        config.fleet = local.fleet
        return config
    }

    /// The SHA-256s of the icon blobs `config` names (icons in `directory`), each once, in order.
    package static func blobs(in config: KioskConfig, directory: String) -> [String] {
        var seen: [String] = []
        for ring in config.menu.ringPaths {
            for node in config.menu.items(ofRing: ring) ?? [] {
                guard let path = node.item.iconPath, path.hasPrefix(directory + "/") else { continue }
                let hex = String(path.dropFirst(directory.count + 1))
                if ConfigParser.isSHA256(hex) && !seen.contains(hex) { seen.append(hex) }
            }
        }
        return seen
    }

    /// The path of the first item, in any ring, that runs a command.
    static func firstCommand(in menu: MenuTree) -> String? {
        for ring in menu.ringPaths {
            for node in menu.items(ofRing: ring) ?? [] where node.item.command != nil {
                return ring.appending(node.id).description
            }
        }
        return nil
    }
}
