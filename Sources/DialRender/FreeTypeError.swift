/// FreeType's error codes in words. FT_Error_String returns nothing unless FreeType was built
/// with FT_CONFIG_OPTION_ERROR_STRINGS (Debian's is not), so the common ones are listed here
/// (numbers from freetype/fterrdef.h).
enum FreeTypeError {
    private static let meanings: [Int32: String] = [
        0x01: "cannot open the file",
        0x02: "not a font file FreeType knows (unknown file format)",
        0x03: "a broken font file (invalid file format)",
        0x04: "invalid FreeType version",
        0x06: "invalid argument",
        0x07: "a font feature FreeType does not implement",
        0x08: "a broken table in the font file",
        0x09: "a broken offset in a table of the font file",
        0x0A: "an array in the font file is too large",
        0x10: "invalid glyph index",
        0x11: "invalid character code",
        0x12: "unsupported glyph image format",
        0x13: "cannot render this glyph format",
        0x14: "invalid glyph outline",
        0x17: "invalid pixel size",
        0x40: "out of memory",
        0x51: "cannot open the stream",
        0x52: "invalid stream seek (the file is shorter than its tables say)",
        0x53: "invalid stream skip",
        0x54: "invalid stream read (the file is shorter than its tables say)",
        0x55: "invalid stream operation",
        0x56: "invalid frame operation (a truncated or broken table)",
        0x8E: "a table the font needs is missing",
    ]

    /// "unknown file format (FreeType error 2)", or "FreeType error N" for codes not listed.
    static func describe(_ code: Int32) -> String {
        guard let meaning = meanings[code] else { return "FreeType error \(code)" }
        return "\(meaning) (FreeType error \(code))"
    }
}
