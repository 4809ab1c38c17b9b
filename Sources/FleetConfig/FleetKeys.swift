/// The key files: one line of base64 of the raw key per key, `#` comment lines and blank lines
/// allowed. `fleet.pub` holds a 32-byte Ed25519 public key (what `trusted_keys` reads);
/// `fleet.key` the 32-byte seed of the secret key.
public enum FleetKeys {
    /// Every key in `text` (`file` words the error: `fleet.pub:3: ...`), each `bytes` long.
    public static func parse(_ text: String, file: String, bytes: Int = Sodium.publicKeyBytes) -> Result<[[UInt8]], FleetError> {
        var keys: [[UInt8]] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(raw)
            while let c = line.last, c == "\r" || c == " " || c == "\t" { line = line.dropLast() }
            while let c = line.first, c == " " || c == "\t" { line = line.dropFirst() }
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let key = Base64.decode(line) else {
                return .failure(FleetError("\(file):\(index + 1): not base64 of a raw key"))
            }
            guard key.count == bytes else {
                return .failure(FleetError("\(file):\(index + 1): a key is \(bytes) bytes, this one is \(key.count)"))
            }
            keys.append(key)
        }
        guard !keys.isEmpty else { return .failure(FleetError("\(file): no key in it (one line of base64)")) }
        return .success(keys)
    }

    /// A key file's text: a comment saying what it is, then the key.
    public static func text(_ key: [UInt8], comment: String) -> String {
        "# \(comment)\n" + Base64.encode(key) + "\n"
    }
}
