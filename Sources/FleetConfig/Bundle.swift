/// A signed configuration: the configuration text, its serial, the client ids it is for (none:
/// every kiosk) and an Ed25519 signature over all three.
///
/// On the wire it is text, so it can be read with `cat`:
/// ```
/// dialkiosk-bundle 1
/// serial 42
/// target kiosk-hall-3          (zero or more)
/// config 812                   (the text's length in bytes, then the text itself)
/// <812 bytes>
/// signature <base64 of 64 bytes>
/// ```
/// The signature is over `signedBytes`, a length-prefixed encoding of the fields (not over the
/// wire text), so no two different bundles sign the same bytes whatever their text holds.
public struct ConfigBundle: Sendable, Equatable {
    public var serial: UInt64
    public var targets: [String]
    /// The configuration text (UTF-8), as `check-config` would read it from a file.
    public var config: [UInt8]
    public var signature: [UInt8]

    /// Largest bundle read: the configuration file's own limit and room for the header.
    public static let maxBytes = (256 << 10) + (64 << 10)
    /// Largest icon blob taken (`<topic>/blob/<sha256>`): a PNG at the icon decoder's limits.
    public static let maxBlobBytes = 8 << 20
    public static let maxTargets = 1024
    public static let maxTargetBytes = 256
    static let magic = "dialkiosk-bundle 1"

    public init(serial: UInt64, targets: [String], config: [UInt8], signature: [UInt8] = []) {
        self.serial = serial
        self.targets = targets
        self.config = config
        self.signature = signature
    }

    /// What the signature covers: a domain tag, then each field with its length in front
    /// (big-endian serial; u32 target count, each target u32 length + bytes; u32 length + text).
    public var signedBytes: [UInt8] {
        var out = Array("dialkiosk-bundle-v1".utf8) + [0]
        func u32(_ n: Int) { for shift in stride(from: 24, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: n >> shift)) } }
        for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: serial >> UInt64(shift))) }
        u32(targets.count)
        for target in targets {
            u32(target.utf8.count)
            out += target.utf8
        }
        u32(config.count)
        out += config
        return out
    }

    /// The wire form.
    public var encoded: [UInt8] {
        var text = "\(Self.magic)\nserial \(serial)\n"
        for target in targets { text += "target \(target)\n" }
        text += "config \(config.count)\n"
        return Array(text.utf8) + config + Array("\nsignature \(Base64.encode(signature))\n".utf8)
    }

    /// A bundle read from `bytes`, strictly: the size is checked before anything else, every
    /// line must be the one expected, numbers are plain decimal, nothing may follow.
    public static func parse(_ bytes: [UInt8]) -> Result<ConfigBundle, FleetRefusal> {
        if bytes.isEmpty { return .failure(.empty) }
        if bytes.count > maxBytes { return .failure(.tooLarge(bytes: bytes.count, limit: maxBytes)) }
        var reader = LineCursor(bytes: bytes)
        guard let first = reader.line(), first == magic else { return .failure(.malformed("does not start with '\(magic)'")) }
        guard let serialLine = reader.line(), serialLine.hasPrefix("serial "),
              let serial = decimal(serialLine.dropFirst(7)), serial > 0 else {
            return .failure(.malformed("expected 'serial N' (N from 1) on line 2"))
        }
        var targets: [String] = []
        var lengthLine: Substring?
        while let line = reader.line() {
            if line.hasPrefix("target ") {
                let target = String(line.dropFirst(7))
                guard !target.isEmpty, target.utf8.count <= maxTargetBytes, !target.contains(" ") else {
                    return .failure(.malformed("target '\(target.prefix(64))' is not a client id"))
                }
                guard targets.count < maxTargets else { return .failure(.malformed("more than \(maxTargets) targets")) }
                targets.append(target)
                continue
            }
            lengthLine = line
            break
        }
        guard let lengthLine, lengthLine.hasPrefix("config "), let length = decimal(lengthLine.dropFirst(7)),
              length <= UInt64(maxBytes) else {
            return .failure(.malformed("expected 'config LENGTH' after the targets"))
        }
        guard let config = reader.take(Int(length)) else {
            return .failure(.malformed("the configuration is shorter than its length \(length) (torn?)"))
        }
        guard reader.take(1) == [UInt8(ascii: "\n")], let signatureLine = reader.line(), signatureLine.hasPrefix("signature "),
              let signature = Base64.decode(signatureLine.dropFirst(10)) else {
            return .failure(.malformed("expected 'signature BASE64' after the configuration"))
        }
        guard signature.count == Sodium.signatureBytes else {
            return .failure(.malformed("a signature is \(Sodium.signatureBytes) bytes, this one is \(signature.count)"))
        }
        guard reader.atEnd else { return .failure(.malformed("bytes after the signature")) }
        return .success(ConfigBundle(serial: serial, targets: targets, config: Array(config), signature: signature))
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

    /// The next line without its LF, or nil at the end or when it is not UTF-8 (or longer than 4 KiB).
    mutating func line() -> Substring? {
        guard offset < bytes.count else { return nil }
        let end = bytes[offset...].prefix(4097).firstIndex(of: UInt8(ascii: "\n"))
        let stop = end ?? bytes.count
        guard stop - offset <= 4096, let text = String(validating: bytes[offset..<stop], as: UTF8.self) else { return nil }
        offset = end.map { $0 + 1 } ?? bytes.count
        return Substring(text)
    }

    mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, bytes.count - offset >= count else { return nil }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    var atEnd: Bool { offset == bytes.count }
}
