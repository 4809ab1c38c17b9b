import Glibc

/// An ALSA PCM name read as text, never opened: what check-config and the configuration may say
/// about `accessibility.device` without acting. ALSA's `file` and `tee` plugins write to a path
/// (truncating it) when the device is opened, which an administrator may want (a recording
/// sink), so check-config only says it did not open them; a name holding `|` runs a shell
/// command and is refused outright. A validator never opens any name at all.
public enum PCMName {
    /// Why `device` is refused, or nil: a command to run, or an inline definition (`{...}`)
    /// that could hold one.
    public static func refusal(_ device: String) -> String? {
        if device.contains("|") { return "'|' would make ALSA run a command; name a card (hw:, plughw:), default or a file" }
        if device.contains("{") || device.contains("}") { return "an inline ALSA definition ({...}) is not accepted; define the PCM in asound.conf" }
        return nil
    }

    /// The plugin in `device` that writes when opened (`file`, `tee`), or nil.
    static func writingPlugin(_ device: String) -> String? {
        let words = device.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") })
        return ["file", "tee"].first { words.contains(Substring($0)) }
    }

    /// What check-config can say about `device` from its text and /proc alone: for `hw:`/
    /// `plughw:` with a card, whether that card exists (stat of /proc/asound/<card>, nothing
    /// opened); for any other name, that it was not checked.
    public static func note(_ device: String, procRoot: String = "/proc/asound") -> String? {
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
