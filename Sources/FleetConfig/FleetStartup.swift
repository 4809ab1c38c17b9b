import KioskConfiguration

/// What a kiosk with a `fleet:` section runs at start: the confirmed pushed configuration
/// (`current`), else the one confirmed before it (`last-good`), else the local file. A pending
/// one is never run: the kiosk was killed before it was confirmed, so it counts as reverted.
/// Every stored file is verified again (signature, sections, parse), so a torn or tampered one
/// is skipped with a log line.
package struct FleetStartup: Equatable {
    /// The configuration to run (the local one when nothing pushed is good).
    package var config: KioskConfig
    /// The running pushed bundle; nil: the local file runs.
    package var bundle: ConfigBundle?
    /// The serial a pending bundle had when the kiosk stopped; it is reported as reverted.
    package var droppedPending: UInt64?
    /// What start-up found wrong, one line each, for the journal.
    package var log: [String]

    /// Reads `store` and decides; `keys` are the trusted public keys.
    package static func choose(store: FleetStore, keys: [MinisignPublicKey], local: KioskConfig, allowCommands: Bool,
                              verifier: FleetAcceptance.Verifier = FleetAcceptance.sodiumVerifier) -> FleetStartup {
        var result = FleetStartup(config: local, bundle: nil, droppedPending: nil, log: [])
        do {
            if let pending = try store.read(.pending) {
                let serial = (try? ConfigBundle.parse(pending).get())?.serial
                result.droppedPending = serial ?? 0
                result.log.append("fleet: \(store.path(.pending)): serial \(serial.map(String.init) ?? "?") was not confirmed before the kiosk stopped; "
                                  + "reverted to the last confirmed configuration")
                try store.remove(.pending)
            }
            if let incoming = try store.read(.incoming) {
                let serial = (try? ConfigBundle.parse(incoming).get())?.serial
                result.log.append("fleet: \(store.path(.incoming)): serial \(serial.map(String.init) ?? "?") was taken but not built "
                                  + "before the kiosk stopped; dropped")
                try store.remove(.incoming)
            }
        } catch {
            result.log.append("fleet: \(error)")
        }
        for slot in [FleetStore.Slot.current, .lastGood] {
            let bytes: [UInt8]
            do {
                guard let read = try store.read(slot) else { continue }
                bytes = read
            } catch {
                result.log.append("fleet: \(error); skipped")
                continue
            }
            let checked = FleetAcceptance.verify(bytes, trustedKeys: keys, verifier: verifier).flatMap { bundle in
                FleetAcceptance.content(bundle, local: local, allowCommands: allowCommands, blobDirectory: store.blobDirectory)
                    .map { (bundle, $0) }
            }
            switch checked {
            case .failure(let refusal):
                result.log.append("fleet: \(store.path(slot)): refused (\(refusal)); trying the next")
            case .success(let (bundle, config)):
                // Its icons are checked again too: a torn or changed blob is refused as its bundle is.
                let bad = FleetAcceptance.blobs(in: config, directory: store.blobDirectory).filter { !store.hasBlob($0) }
                if !bad.isEmpty {
                    result.log.append("fleet: \(store.path(slot)): refused (blob " + bad.map { "sha256:" + $0 }.joined(separator: ", ")
                                      + " missing or changed in \(store.blobDirectory)); trying the next")
                    continue
                }
                result.bundle = bundle
                result.config = config
                return result
            }
        }
        return result
    }
}

extension FleetKeys {
    /// The keys of every file in `paths`, and what was wrong with the others (a kiosk with one
    /// unreadable key file still trusts the rest).
    package static func load(_ paths: [String]) -> (keys: [MinisignPublicKey], problems: [String]) {
        var keys: [MinisignPublicKey] = []
        var problems: [String] = []
        for path in paths {
            do {
                guard let bytes = try FleetStore.readFile(path, limit: 64 << 10) else {
                    problems.append("\(path): no such file")
                    continue
                }
                switch parse(String(decoding: bytes, as: UTF8.self), file: path) {
                case .success(let found): keys += found
                case .failure(let error): problems.append(error.description)
                }
            } catch {
                problems.append("\(error)")
            }
        }
        return (keys, problems)
    }
}
