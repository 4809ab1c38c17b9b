import ArgumentParser
import FleetConfig
import KioskConfiguration
import KioskReporting
import KioskFeatures
import LinuxSystem

/// `dialkiosk config ...`: fleet keys, signed bundles and the state folder of pushed
/// configurations (docs/fleet.md).
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Sign configurations for a fleet and inspect the pushed ones.",
        subcommands: [Keygen.self, Sign.self, Verify.self, Status.self, Reset.self]
    )

    /// The state folder option the state subcommands share with `run`.
    struct StateOptions: ParsableArguments {
        @Option(name: .customLong("state-dir"), help: ArgumentHelp(
            "The folder of pushed configurations (default: $STATE_DIRECTORY, else /var/lib/dialkiosk).", valueName: "dir"))
        var stateDir: String?

        var store: FleetStore {
            FleetStore(directory: FleetStore.directory(option: stateDir, environment: ProcessEnvironment.current()))
        }
    }

    struct Keygen: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a minisign key pair: DIR/fleet.key (secret, mode 0600) and DIR/fleet.pub (for trusted_keys).",
            discussion: "The files are minisign's: `minisign -S -s DIR/fleet.key` signs with the key, `minisign -V -p DIR/fleet.pub` "
                + "verifies. The secret key is encrypted with scrypt at minisign's cost (1 GiB, a few seconds) under a password "
                + "typed twice on the terminal, or the first line of --password-file.")

        @Option(help: ArgumentHelp("The folder to write fleet.key and fleet.pub into (created if missing; existing keys are not overwritten).",
                                   valueName: "dir"))
        var out: String

        @Option(name: .customLong("password-file"), help: ArgumentHelp("Read the password from this file's first line, not the terminal.",
                                                                      valueName: "file"))
        var passwordFile: String?

        @Flag(name: .customLong("without-password"), help: "Leave the secret key unencrypted (minisign -W): only for test keys.")
        var withoutPassword = false

        func validate() throws {
            if withoutPassword && passwordFile != nil { throw ValidationError("--without-password and --password-file exclude each other.") }
        }

        func run() throws {
            try reportingErrors {
                let key = try fleet { () throws(FleetError) in try MinisignSecretKey.generate() }
                var password = withoutPassword ? nil : try KeyPassword.read(file: passwordFile, prompt: "Password for the new key: ", confirm: true)
                defer { if password != nil { Sodium.wipe(&password!) } }
                let secret = try fleet { () throws(FleetError) in try key.fileText(password: password) }
                if let failure = FilePaths.makeDirectory(out, mode: 0o700), failure != .fileExists {
                    throw CommandFailure("cannot create \(out): \(failure)", status: .ioError)
                }
                try writeNew(out + "/fleet.key", secret, mode: 0o600)
                try writeNew(out + "/fleet.pub", key.publicKey.fileText, mode: 0o644)
                print("\(out)/fleet.key\n\(out)/fleet.pub\nkey id \(key.publicKey.keyIDText)")
            }
        }
    }

    struct Sign: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sign a configuration file with a minisign key; the bundle goes to standard output.",
            discussion: "The file must be a configuration a kiosk would take: it is checked as a pushed one is (the sections "
                + "display, input, mqtt and fleet stay local; item commands need --allow-commands). The bundle is the "
                + "signature (a .minisig file's four lines, the trusted comment naming serial and targets) followed by the "
                + "file: `head -n 4` of it is a signature `minisign -V` checks against the file.")

        @Option(help: ArgumentHelp("The minisign secret key file (fleet.key from config keygen, or minisign -G's).", valueName: "secret"))
        var key: String

        @Option(name: .customLong("password-file"), help: ArgumentHelp("Read the key's password from this file's first line, not the terminal.",
                                                                      valueName: "file"))
        var passwordFile: String?

        @Option(help: ArgumentHelp("The bundle's serial: higher than every bundle the kiosks took before (1 to 2^63-1).", valueName: "n"))
        var serial: UInt64

        @Option(name: .customLong("target"), help: ArgumentHelp("A client id the bundle is for; repeat for several; none: every kiosk.",
                                                                valueName: "client-id"))
        var targets: [String] = []

        @Flag(name: .customLong("allow-commands"), help: "Sign even when items carry commands (kiosks take them only with fleet.allow_commands).")
        var allowCommands = false

        @Flag(name: .customLong("no-check"), help: "Sign without checking the content (to test that the kiosks refuse it themselves).")
        var noCheck = false

        @Argument(help: "The configuration file to sign (YAML).")
        var file: String

        func validate() throws {
            guard serial >= 1, serial <= UInt64(Int64.max) else { throw ValidationError("--serial must be from 1 to 2^63-1.") }
            for target in targets where target.isEmpty || target.utf8.count > ConfigBundle.maxTargetBytes
                || target.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
                throw ValidationError("--target '\(target)' is not a client id (1 to \(ConfigBundle.maxTargetBytes) bytes, no spaces).")
            }
        }

        func run() throws {
            try reportingErrors {
                let text = try ConfigLoader.readText(file)
                let comment = ConfigBundle.trustedComment(serial: serial, targets: targets)
                guard comment.utf8.count + Minisign.trustedPrefix.utf8.count + 2 <= Minisign.trustedCommentMaxBytes else {
                    throw CommandFailure("the targets do not fit a trusted comment (\(Minisign.trustedCommentMaxBytes) bytes); "
                                         + "sign several bundles", status: .usage)
                }
                let secret = try readSecretKey(key, passwordFile: passwordFile)
                let config = Array(text.utf8)
                if !noCheck, case .failure(let refusal) = FleetAcceptance.content(config: config, serial: serial, local: KioskConfig(),
                                                                                   allowCommands: allowCommands) {
                    throw CommandFailure("\(file): \(refusal.description.replacingBundleName(serial: serial, with: file))", status: .config)
                }
                let bundle = try fleet { () throws(FleetError) in try ConfigBundle.signed(config, serial: serial, targets: targets, key: secret) }
                if case .failure(let e) = FileDescriptor(adopting: 1).writeAllKeepingOpen(bundle.encoded) {
                    throw CommandFailure("cannot write the bundle to standard output: \(e)", status: .ioError)
                }
            }
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a bundle's signature and content; exit 0, or 65 with the reason.")

        @Option(help: ArgumentHelp("A minisign public key file (fleet.pub).", valueName: "public"))
        var key: String

        @Argument(help: "The bundle file ('-' reads standard input).")
        var bundle: String

        func run() throws {
            try reportingErrors {
                let keys = try readPublicKeys(key)
                let bytes: [UInt8]
                do {
                    guard let read = try FleetStore.readFile(bundle == "-" ? "/dev/stdin" : bundle, limit: ConfigBundle.maxBytes) else {
                        throw CommandFailure("\(bundle): no such file", status: .noInput)
                    }
                    bytes = read
                } catch let error as FleetError {
                    let status: ExitStatus = error.description.contains("larger than") ? .dataError : .noInput
                    throw CommandFailure(error.description, status: status)
                }
                try fleet { () throws(FleetError) in try Sodium.load() }
                let checked = FleetAcceptance.verify(bytes, trustedKeys: keys).flatMap { verified in
                    FleetAcceptance.content(verified, local: KioskConfig(), allowCommands: true).map { _ in verified }
                }
                switch checked {
                case .failure(let refusal): throw CommandFailure("\(bundle): \(refusal)", status: .dataError)
                case .success(let b):
                    let targets = b.targets.isEmpty ? "every kiosk" : b.targets.joined(separator: ", ")
                    print("\(bundle): serial \(b.serial), \(b.config.count) bytes, for \(targets): signed by key id \(b.signature.keyIDText), good")
                }
            }
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the state folder as one JSON object: running serial, source, pending, last good, highest serial.")

        @OptionGroup var state: StateOptions

        func run() throws {
            try reportingErrors { print(FleetStatusReport.read(state.store).text) }
        }
    }

    struct Reset: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Drop every pushed configuration: the local file runs at the next start or reload.",
            discussion: "The highest serial taken is kept, so an old bundle still retained on the broker is not taken again.")

        @OptionGroup var state: StateOptions

        func run() throws {
            try reportingErrors {
                let store = state.store
                try fleet { () throws(FleetError) in try store.reset() }
                print("\(store.directory): pushed configurations removed")
            }
        }
    }
}

/// A FleetError as the command's failure (65: bad data).
func fleet<T>(_ body: () throws(FleetError) -> T) throws -> T {
    do { return try body() } catch { throw CommandFailure("\(error)", status: .dataError) }
}

/// The keys of a public key file: 66 when it cannot be read, 65 when it holds no key.
func readPublicKeys(_ path: String) throws -> [MinisignPublicKey] {
    switch FleetKeys.parse(String(decoding: try readKeyBytes(path), as: UTF8.self), file: path) {
    case .success(let keys): return keys
    case .failure(let error): throw CommandFailure(error.description, status: .dataError)
    }
}

/// A secret key file opened (its password asked for when it is encrypted): 66 when it cannot
/// be read, 65 when it is damaged, truncated or the password is wrong.
func readSecretKey(_ path: String, passwordFile: String?) throws -> MinisignSecretKey {
    let file: MinisignSecretKeyFile
    switch MinisignSecretKeyFile.parse(String(decoding: try readKeyBytes(path), as: UTF8.self), file: path) {
    case .success(let parsed): file = parsed
    case .failure(let error): throw CommandFailure(error.description, status: .dataError)
    }
    var password = file.isEncrypted ? try KeyPassword.read(file: passwordFile, prompt: "Password for \(path): ") : []
    defer { Sodium.wipe(&password) }
    return try fleet { () throws(FleetError) in try file.open(password: password, file: path) }
}

private func readKeyBytes(_ path: String) throws -> [UInt8] {
    do {
        guard let read = try FleetStore.readFile(path, limit: 64 << 10) else { throw CommandFailure("\(path): no such file", status: .noInput) }
        return read
    } catch let error as FleetError {
        throw CommandFailure(error.description, status: .noInput)
    }
}

/// Creates `path` (never over an existing file) holding `text`.
private func writeNew(_ path: String, _ text: String, mode: UInt32) throws {
    switch FileDescriptor.open(path, [.writeOnly, .create, .exclusive, .noFollow], mode: mode) {
    case .failure(let e): throw CommandFailure("cannot create \(path): \(e)", status: .ioError)
    case .success(let file):
        if case .failure(let e) = file.writeAll(Array(text.utf8)) { throw CommandFailure("cannot write \(path): \(e)", status: .ioError) }
        _ = file.changeMode(mode)
        _ = file.sync()
    }
}

extension FileDescriptor {
    /// writeAll on a descriptor this process does not own (stdout): released, not closed.
    func writeAllKeepingOpen(_ bytes: [UInt8]) -> Result<Void, Errno> {
        defer { _ = release() }
        return writeAll(bytes)
    }
}

extension String {
    /// A refusal worded for the bundle's text, reworded for the file it came from.
    func replacingBundleName(serial: UInt64, with file: String) -> String {
        let name = FleetAcceptance.fileName(serial: serial)
        var out = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: name) {
            out += rest[..<range.lowerBound] + file
            rest = rest[range.upperBound...]
        }
        return out + rest
    }
}
