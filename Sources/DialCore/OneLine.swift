extension String {
    /// This text as one line of at most `limit` characters: line breaks and other control
    /// characters escaped, the middle of an overlong text elided. Error messages quote values
    /// from files people wrote; a quoted block must not break the one-line, located message.
    public func oneLine(limit: Int = 240) -> String {
        var out = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
                || scalar.value == 0x2028 || scalar.value == 0x2029:
                out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        guard out.count > limit else { return out }
        let keep = max(limit - 1, 2) / 2
        return String(out.prefix(keep)) + "…" + String(out.suffix(keep))
    }
}
