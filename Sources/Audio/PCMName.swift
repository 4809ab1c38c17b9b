import Glibc

/// An ALSA PCM name read as text, never opened: what check-config and the configuration may say
/// about `accessibility.device` without acting. ALSA's name parser interprets what it is given
/// (quotes, `\\` escapes in octal and hex, `|` that runs a command, inline `{...}` plugins), so
/// a name is taken only when it has one of the shapes the kiosk itself opens, character by
/// character; anything else is defined in asound.conf and named here.
package enum PCMName {
    /// Letters, digits, '_' and '-': a card's id or a PCM defined in asound.conf.
    static func isPlainName(_ text: Substring, maximum: Int = 64) -> Bool {
        !text.isEmpty && text.utf8.count <= maximum && text.utf8.allSatisfy {
            ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F || $0 == 0x2D
        }
    }

    static func isNumber(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.count <= 3 && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// Why `device` is refused, or nil. Taken: `default`; `hw:` or `plughw:` with a card (its
    /// number or its id) and optionally a device and a subdevice number (`plughw:1,0`,
    /// `hw:Loopback,0,0`); a plain PCM name (letters, digits, `_`, `-`); and, in the local file
    /// only (`filePlugin`), `file:'/PATH',raw` or `,wav` with a plain absolute path (a recording
    /// sink an administrator may want; a pushed configuration never writes files).
    package static func refusal(_ device: String, filePlugin: Bool = true) -> String? {
        let text = Substring(device)
        if isPlainName(text) { return nil }
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        if parts.count == 2, parts[0] == "hw" || parts[0] == "plughw" {
            let fields = parts[1].split(separator: ",", omittingEmptySubsequences: false)
            if (1...3).contains(fields.count), isPlainName(fields[0], maximum: 32), fields.dropFirst().allSatisfy(isNumber) { return nil }
        }
        if filePlugin, let path = filePath(text), path.hasPrefix("/"), !path.split(separator: "/").contains(".."),
           path.utf8.allSatisfy({ isPlainName(Substring(String(decoding: [$0], as: UTF8.self))) || $0 == 0x2F || $0 == 0x2E }) {
            return nil
        }
        return "'\(device.prefix(64))' is not a device name the kiosk opens: expected default, hw:CARD,DEVICE, plughw:CARD,DEVICE "
            + "(CARD a number or a card id) or a PCM name of letters, digits, '_' and '-'"
            + (filePlugin ? " (or file:'/PATH',raw)" : " (a pushed configuration names no file)")
            + "; define anything else in asound.conf and name it here"
    }

    /// The PATH of `file:'PATH',raw` (or `,wav`), or nil.
    static func filePath(_ text: Substring) -> Substring? {
        for format in [",raw", ",wav"] where text.hasPrefix("file:'") && text.hasSuffix("'" + format) {
            let path = text.dropFirst(6).dropLast(format.count + 1)
            return path.isEmpty || path.contains("'") ? nil : path
        }
        return nil
    }

    /// The plugin in `device` that writes when opened (`file`, `tee`), or nil.
    static func writingPlugin(_ device: String) -> String? {
        let words = device.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") })
        return ["file"].first { words.first == Substring($0) }
    }

    /// What check-config can say about `device` from its text and /proc alone: for `hw:`/
    /// `plughw:` with a card, whether that card exists (stat of /proc/asound/<card>, nothing
    /// opened); for any other name, that it was not checked.
    package static func note(_ device: String, procRoot: String = "/proc/asound") -> String? {
        if let plugin = writingPlugin(device) {
            return "'\(device)' uses ALSA's \(plugin) plugin: not opened by check-config (opening it writes its file)"
        }
        let parts = device.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, ["hw", "plughw"].contains(parts[0].lowercased()) else {
            return "'\(device)' is not opened by check-config; whether it plays shows at start"
        }
        var card = String(parts[1].split(separator: ",").first ?? "")
        if card.hasPrefix("CARD=") { card = String(card.dropFirst(5)) }
        card = card.trimmingCharacters(in: "'\"")
        guard !card.isEmpty, !card.contains("/"), card != ".", card != ".." else { return nil }
        let path = Int(card).map { "\(procRoot)/card\($0)" } ?? "\(procRoot)/\(card)"
        var st = stat()
        return stat(path, &st) == 0 ? nil : "sound card '\(card)' is not present now (\(path) does not exist); the kiosk runs silent and tries again every 5 s"
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let c = s.first, set.contains(c) { s = s.dropFirst() }
        while let c = s.last, set.contains(c) { s = s.dropLast() }
        return String(s)
    }
}
