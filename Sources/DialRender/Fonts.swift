import CFontconfig
import CFreeType
import CHarfBuzz
import LinuxSystem

/// Owner of the FreeType library handle (FT_Init_FreeType / FT_Done_FreeType). Faces keep it
/// alive, so it is released after the last face.
final class FreeTypeLibrary {
    let handle: FT_Library

    init() throws {
        var lib: FT_Library?
        let err = FT_Init_FreeType(&lib)
        guard err == 0, let lib else { throw RenderError(.library, "initialise FreeType", FreeTypeError.describe(err)) }
        handle = lib
    }

    deinit { FT_Done_FreeType(handle) }
}

/// One font file opened with FreeType (FT_New_Memory_Face over a read-only mapping of the file)
/// and wrapped for HarfBuzz (hb_ft_font_create_referenced). Sizes are set in 1/64 pixel units;
/// the HarfBuzz font follows.
///
/// The file is opened through `RegularFile` rather than by FreeType's own fopen, which blocks
/// forever on a FIFO; FreeType maps font files itself on Unix, so the mapping costs nothing more.
final class FontFace {
    let path: String
    /// A small number naming this face in glyph cache keys.
    let id: Int
    let face: FT_Face
    let hbFont: OpaquePointer
    private let library: FreeTypeLibrary
    /// Released after the face (deinit's body runs first).
    private let mapping: MappedFile
    private(set) var size64: Int = 0

    init(path: String, id: Int, library: FreeTypeLibrary) throws {
        let file: FileDescriptor
        do { file = try RegularFile.open(path) } catch let e as RegularFile.Failure {
            throw RenderError(.fontNotFound, "load font \(path)", e.reason)
        }
        // The mapping outlives the descriptor, which `file` closes at the end of this scope.
        let bytes = file.size
        guard bytes > 0 else { throw RenderError(.fontNotFound, "load font \(path)", "the file is empty") }
        let map: MappedFile
        switch MappedFile.map(file, count: bytes) {
        case .success(let made): map = made
        case .failure(let failure): throw RenderError(.fontNotFound, "load font \(path)", "cannot map the file: \(failure.description)")
        }
        var f: FT_Face?
        let err = FT_New_Memory_Face(library.handle, map.base.assumingMemoryBound(to: FT_Byte.self), FT_Long(bytes), 0, &f)
        guard err == 0, let f else {
            throw RenderError(.fontNotFound, "load font \(path)", FreeTypeError.describe(err))
        }
        self.path = path
        self.id = id
        self.library = library
        mapping = map
        face = f
        hbFont = hb_ft_font_create_referenced(f)
        setSize(px64: 16 * 64)
    }

    deinit {
        hb_font_destroy(hbFont)
        FT_Done_Face(face)
    }

    /// Selects the pixel size (FT_Set_Char_Size at 72 dpi, so points are pixels) for shaping
    /// and rasterising.
    func setSize(px64: Int) {
        guard px64 != size64 else { return }
        FT_Set_Char_Size(face, 0, FT_F26Dot6(px64), 72, 72)
        hb_ft_font_changed(hbFont)
        size64 = px64
    }

    func hasGlyph(_ scalar: Unicode.Scalar) -> Bool {
        FT_Get_Char_Index(face, FT_ULong(scalar.value)) != 0
    }

    /// Ascender and descender (descender negative) at the current size, in pixels.
    var verticalMetrics: (ascender: Double, descender: Double) {
        let m = face.pointee.size.pointee.metrics
        return (Double(m.ascender) / 64, Double(m.descender) / 64)
    }
}

/// Finds font files by family with fontconfig (FcFontMatch) and fallbacks for characters the
/// main font lacks (a charset query), and keeps every face it opened.
final class FontCatalog {
    private let library: FreeTypeLibrary
    private let config: OpaquePointer
    private var facesByPath: [String: FontFace] = [:]
    private var fallbackByScalar: [UInt32: FontFace?] = [:]

    init() throws {
        library = try FreeTypeLibrary()
        guard let c = FcInitLoadConfigAndFonts() else {
            throw RenderError(.library, "load the fontconfig configuration", "FcInitLoadConfigAndFonts returned nothing")
        }
        config = c
    }

    deinit {
        facesByPath.removeAll()
        fallbackByScalar.removeAll()
        FcConfigDestroy(config)
    }

    /// The face for `spec`: a path (anything containing "/") or a fontconfig name such as
    /// "DejaVu Sans" or "DejaVu Sans:bold". A family fontconfig does not know is an error, not a
    /// silent substitute.
    func face(named spec: String) throws -> FontFace {
        let path = spec.contains("/") ? spec : try match(family: spec)
        return try face(path: path)
    }

    func face(path: String) throws -> FontFace {
        if let f = facesByPath[path] { return f }
        let f = try FontFace(path: path, id: facesByPath.count + 1, library: library)
        facesByPath[path] = f
        return f
    }

    /// A face that has a glyph for `scalar`, preferring sans-serif faces, or nil.
    func fallback(for scalar: Unicode.Scalar) -> FontFace? {
        if let known = fallbackByScalar[scalar.value] { return known }
        var found: FontFace?
        if let pattern = FcNameParse("sans-serif"), let charset = FcCharSetCreate() {
            FcCharSetAddChar(charset, scalar.value)
            FcPatternAddCharSet(pattern, FC_CHARSET, charset)
            FcConfigSubstitute(config, pattern, FcMatchPattern)
            FcDefaultSubstitute(pattern)
            var result = FcResultNoMatch
            if let m = FcFontMatch(config, pattern, &result) {
                var cs: OpaquePointer?
                if FcPatternGetCharSet(m, FC_CHARSET, 0, &cs) == FcResultMatch, let cs,
                   FcCharSetHasChar(cs, scalar.value) != 0, let file = string(m, FC_FILE) {
                    found = try? face(path: file)
                }
                FcPatternDestroy(m)
            }
            FcCharSetDestroy(charset)
            FcPatternDestroy(pattern)
        }
        fallbackByScalar[scalar.value] = .some(found)
        return found
    }

    private func match(family spec: String) throws -> String {
        guard let pattern = FcNameParse(spec) else {
            throw RenderError(.fontNotFound, "load font '\(spec)'", "not a fontconfig font name")
        }
        defer { FcPatternDestroy(pattern) }
        let wanted = string(pattern, FC_FAMILY)?.lowercased()
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let m = FcFontMatch(config, pattern, &result) else {
            throw RenderError(.fontNotFound, "load font '\(spec)'", "fontconfig found no font at all")
        }
        defer { FcPatternDestroy(m) }
        // fontconfig always answers with its best guess; only accept it if it is the family asked for.
        var families: [String] = []
        var i: Int32 = 0
        while let f = string(m, FC_FAMILY, i) { families.append(f.lowercased()); i += 1 }
        if let wanted, !families.contains(wanted) {
            throw RenderError(.fontNotFound, "load font '\(spec)'", "no installed font has this family (fc-list lists them)")
        }
        guard let file = string(m, FC_FILE) else {
            throw RenderError(.fontNotFound, "load font '\(spec)'", "fontconfig gave no file")
        }
        return file
    }

    private func string(_ p: OpaquePointer, _ object: String, _ n: Int32 = 0) -> String? {
        var value: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(p, object, n, &value) == FcResultMatch, let value else { return nil }
        return String(cString: UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self))
    }
}
