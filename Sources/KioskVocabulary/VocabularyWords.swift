/// The forms of the words commands carry, shared with the configuration's checks (an id the
/// file accepts is one `select` accepts, and the same for language codes).
package enum VocabularyWords {
    /// An item id: letters, digits, `-`, `_`, `.`; it travels in `select <id>` lines and
    /// environment variables, so no spaces or control characters.
    package static func isItemID(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64 && text.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                || scalar == "-" || scalar == "_" || scalar == "."
        }
    }

    /// A language code: letters, digits and '-' (`en`, `pt-BR`, `zh-Hans`), 1 to 16 of them.
    package static func isLanguageCode(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 16
            && text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }
}

extension String {
    /// At most `scalars` Unicode scalars of the text, control characters shown as `?` and an
    /// ellipsis when cut: what a log line may quote of hostile input. Counting scalars, not
    /// characters, bounds the work and the length (one character may hold any number of
    /// combining marks).
    package func logExcerpt(_ scalars: Int) -> String {
        var out = String.UnicodeScalarView()
        var taken = 0
        for scalar in unicodeScalars {
            guard taken < scalars else {
                out.append("\u{2026}")
                break
            }
            out.append(scalar.properties.generalCategory == .control ? "?" : scalar)
            taken += 1
        }
        return String(out)
    }

    package func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s = s.dropFirst() }
        while let c = s.last, c.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
