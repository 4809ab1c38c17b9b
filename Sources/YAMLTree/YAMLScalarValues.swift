/// YAML 1.1's reading of plain scalars: which tag a spelling resolves to (which decides whether
/// two keys are the same key) and the integers `libinput record` files are written in.
package enum YAMLScalarValues {
    package static let strTag = "tag:yaml.org,2002:str"
    package static let nullSpellings: Set<String> = ["~", "null", "Null", "NULL", ""]

    /// The implicit resolution of YAML 1.1's types, tried in this order, the first match winning
    /// (the patterns are the specification's, as the reader used before compiled them).
    private static let rules: [(tag: String, pattern: String)] = [
        ("bool", "yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF"),
        ("int", "[-+]?0b[0-1_]+|[-+]?0o?[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+"),
        ("float", "[-+]?(?:[0-9][0-9_]*)(?:\\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\\.[0-9_]+(?:[eE][-+][0-9]+)?"
            + "|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\\.[0-9_]*|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN)"),
        ("merge", "<<"),
        ("null", "~|null|Null|NULL|"),
        ("timestamp", "[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?"
            + "(?:[Tt]|[ \\t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\\.[0-9]*)?(?:[ \\t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?"),
        ("value", "="),
    ]

    /// The tag a plain scalar spelled `text` resolves to (`tag:yaml.org,2002:int` for `12`).
    /// Only asked when two keys have the same text, so the patterns are compiled then.
    package static func resolvedTag(plain text: String) -> String {
        for rule in rules {
            // A pattern of ours that does not compile is a bug, not an input: no tag matches it.
            guard let regex = try? Regex(rule.pattern).matchingSemantics(.unicodeScalar) else { continue }
            if (try? regex.wholeMatch(in: text)) != nil { return "tag:yaml.org,2002:" + rule.tag }
        }
        return strTag
    }

    /// A plain scalar as YAML 1.1 writes integers: underscores ignored, a sign, then `0x`, `0b`,
    /// `0o` or a leading `0` for octal, or base-60 parts (`1:30` is 90); nil otherwise.
    package static func integer(_ scalar: YAMLScalar) -> Int? {
        guard scalar.style == .plain || scalar.style == .any else { return nil }
        let signed = String(scalar.string.unicodeScalars.filter { $0 != "_" })
        if signed == "0" { return 0 }
        let negative = signed.hasPrefix("-")
        let sign = negative ? "-" : ""
        let digits = signed.dropFirst(negative || signed.hasPrefix("+") ? 1 : 0)
        for (prefix, radix) in [("0x", 16), ("0b", 2), ("0o", 8), ("0", 8)] where digits.hasPrefix(prefix) {
            return Int(sign + digits.dropFirst(prefix.count), radix: radix)
        }
        if digits.contains(":") { return sexagesimal(signed) }
        return Int(signed)
    }

    /// `[-+]a:b:c` as a * 3600 + b * 60 + c.
    private static func sexagesimal(_ text: String) -> Int? {
        let negative = text.hasPrefix("-")
        let body = text.dropFirst(negative || text.hasPrefix("+") ? 1 : 0)
        var value = 0
        for part in body.split(separator: ":", omittingEmptySubsequences: false) {
            guard let digit = Int(part, radix: 10) else { return nil }
            let (shifted, overflowed) = value.multipliedReportingOverflow(by: 60)
            guard !overflowed else { return nil }
            let (sum, overflowedSum) = shifted.addingReportingOverflow(digit)
            guard !overflowedSum else { return nil }
            value = sum
        }
        return negative ? -value : value
    }
}
