/// The trusted key files (`fleet.trusted_keys`): minisign public key files, as `minisign -G`
/// and `dialkiosk config keygen` write them. `untrusted comment:` lines, `#` comment lines and
/// blank lines are skipped; every other line is one key (`RW...`), so one file may hold several.
package enum FleetKeys {
    /// Every key in `text` (`file` words the error: `fleet.pub:3: ...`).
    package static func parse(_ text: String, file: String) -> Result<[MinisignPublicKey], FleetError> {
        var keys: [MinisignPublicKey] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(raw)
            while let c = line.last, c == "\r" || c == " " || c == "\t" { line = line.dropLast() }
            while let c = line.first, c == " " || c == "\t" { line = line.dropFirst() }
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(Minisign.untrustedPrefix) { continue }
            switch MinisignPublicKey.decode(line) {
            case .failure(let why): return .failure(FleetError("\(file):\(index + 1): \(why.description)"))
            case .success(let key): keys.append(key)
            }
        }
        guard !keys.isEmpty else { return .failure(FleetError("\(file): no key in it (a minisign public key file: a comment line, then RW...)")) }
        return .success(keys)
    }
}
