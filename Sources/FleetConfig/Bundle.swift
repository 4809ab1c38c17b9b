/// A signed configuration: the configuration text, its serial, the client ids it is for (none:
/// every kiosk), and minisign's signature of the text whose trusted comment names the serial
/// and the targets.
///
/// On the wire it is the signature file (`.minisig`, four lines) followed by the configuration
/// file's bytes, exactly as signed, so an operator makes one with `minisign -S` and `cat`:
/// ```
/// untrusted comment: signature from minisign secret key
/// RUTFert/...                                        (base64: "ED", key id, signature)
/// trusted comment: dialkiosk-bundle serial:42 target:kiosk-hall-3
/// pFA6SULC...                                        (base64: the global signature)
/// items:                                             (the configuration, to the end)
///   ...
/// ```
/// The signature covers the text (its BLAKE2b-512 with "ED"), the global signature the first
/// signature and the trusted comment: neither the text nor the serial nor the targets can be
/// changed or moved to another bundle without the key.
package struct ConfigBundle: Sendable, Equatable {
    package var serial: UInt64
    package var targets: [String]
    /// The configuration text (UTF-8), as `check-config` would read it from a file.
    package var config: [UInt8]
    package var signature: MinisignSignature

    /// Largest bundle read: the configuration file's own limit and room for the signature.
    package static let maxBytes = (256 << 10) + (64 << 10)
    /// Largest icon blob taken (`<topic>/blob/<sha256>`): a PNG at the icon decoder's limits.
    package static let maxBlobBytes = 8 << 20
    package static let maxTargets = 1024
    package static let maxTargetBytes = 256
    /// The first word of a bundle's trusted comment.
    package static let magic = "dialkiosk-bundle"

    package init(serial: UInt64, targets: [String], config: [UInt8], signature: MinisignSignature) {
        self.serial = serial
        self.targets = targets
        self.config = config
        self.signature = signature
    }

    /// The trusted comment that names `serial` and `targets`: `dialkiosk-bundle serial:42
    /// target:a target:b` (single spaces; what `minisign -S -t` is given).
    package static func trustedComment(serial: UInt64, targets: [String]) -> String {
        ([magic, "serial:\(serial)"] + targets.map { "target:" + $0 }).joined(separator: " ")
    }

    /// `config` signed by `key` for `serial` and `targets`, as `minisign -S -t` would.
    package static func signed(_ config: [UInt8], serial: UInt64, targets: [String], key: MinisignSecretKey) throws(FleetError) -> ConfigBundle {
        let signature = try key.sign(config, trustedComment: trustedComment(serial: serial, targets: targets))
        return ConfigBundle(serial: serial, targets: targets, config: config, signature: signature)
    }

    /// The wire form: the signature file, then the text.
    package var encoded: [UInt8] { Array(signature.text.utf8) + config }

    /// A bundle read from `bytes`, strictly: the size is checked before anything else, then the
    /// four signature lines (each bounded), then the trusted comment's words. The signatures
    /// are not checked here (`FleetAcceptance.verify` does).
    package static func parse(_ bytes: [UInt8]) -> Result<ConfigBundle, FleetRefusal> {
        if bytes.isEmpty { return .failure(.empty) }
        if bytes.count > maxBytes { return .failure(.tooLarge(bytes: bytes.count, limit: maxBytes)) }
        var reader = LineCursor(bytes: bytes)
        var lines: [Substring] = []
        for limit in [Minisign.untrustedCommentMaxBytes, 256, Minisign.trustedCommentMaxBytes, 256] {
            guard let line = reader.line(limit: limit) else {
                return .failure(.malformed("line \(lines.count + 1): missing, too long or not text "
                                           + "(a bundle is a .minisig file's four lines, then the configuration)"))
            }
            lines.append(line)
        }
        let signature: MinisignSignature
        switch MinisignSignature.parse(lines) {
        case .failure(let why): return .failure(.malformed(why.description))
        case .success(let parsed): signature = parsed
        }
        let (serial, targets): (UInt64, [String])
        switch parseTrustedComment(signature.trustedComment) {
        case .failure(let why): return .failure(.malformed("line 3: trusted comment: " + why.description))
        case .success(let fields): (serial, targets) = fields
        }
        return .success(ConfigBundle(serial: serial, targets: targets, config: Array(reader.rest), signature: signature))
    }

    /// The serial and targets of a trusted comment: `dialkiosk-bundle`, `serial:N` (N from 1),
    /// then zero or more `target:ID`, one space between words, nothing else.
    static func parseTrustedComment(_ text: String) -> Result<(UInt64, [String]), FleetError> {
        let expected = "expected '\(magic) serial:N [target:CLIENT-ID ...]'"
        let words = text.split(separator: " ", omittingEmptySubsequences: false)
        guard words.count >= 2, words[0] == magic, words[1].hasPrefix("serial:"),
              let serial = decimal(words[1].dropFirst(7)), serial > 0 else {
            return .failure(FleetError(expected + ", got '\(text.prefix(80))'"))
        }
        var targets: [String] = []
        for word in words.dropFirst(2) {
            let target = word.hasPrefix("target:") ? String(word.dropFirst(7)) : ""
            guard !target.isEmpty, target.utf8.count <= maxTargetBytes,
                  target.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }) else {
                return .failure(FleetError("'\(word.prefix(64))' is not 'target:CLIENT-ID' (\(expected))"))
            }
            guard targets.count < maxTargets else { return .failure(FleetError("more than \(maxTargets) targets")) }
            targets.append(target)
        }
        return .success((serial, targets))
    }

    /// Plain decimal without sign or leading zeros, at most 2^63 - 1.
    static func decimal(_ text: Substring) -> UInt64? {
        guard !text.isEmpty, text.count <= 19, text.allSatisfy({ $0.isASCII && $0.isNumber }),
              text == "0" || !text.hasPrefix("0"), let n = UInt64(text), n <= UInt64(Int64.max) else { return nil }
        return n
    }
}

/// Reads a byte array line by line (lines end in LF) and by length.
struct LineCursor {
    let bytes: [UInt8]
    var offset = 0

    /// The next line without its LF, or nil at the end, when it has no LF, when it is not
    /// UTF-8 or holds a NUL, or when it is longer than `limit` bytes.
    mutating func line(limit: Int = 4096) -> Substring? {
        guard offset < bytes.count else { return nil }
        guard let stop = bytes[offset...].prefix(limit + 1).firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        guard !bytes[offset..<stop].contains(0), let text = String(validating: bytes[offset..<stop], as: UTF8.self) else { return nil }
        offset = stop + 1
        return Substring(text)
    }

    mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, bytes.count - offset >= count else { return nil }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    var atEnd: Bool { offset == bytes.count }

    /// Everything not read yet.
    var rest: ArraySlice<UInt8> { bytes[offset...] }
}
