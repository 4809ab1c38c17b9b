import DialCore
import DialRender
import Yams

/// The theme's accessibility rules: the shorthand `theme: high-contrast`, the range of
/// `label_scale`, and the contrast a high-contrast theme must keep when its colours are overridden.
package enum ThemeChecks {
    /// `label_scale`: half size to three times (a label still never outgrows its disc).
    package static let labelScales = 0.5...3.0
    /// WCAG 2.x level AAA for text: 7:1.
    package static let minimumContrast = 7.0

    /// The preset of `theme: NAME` (a plain word instead of a mapping); nil when `theme` is
    /// absent or a mapping (read by `parseTheme`).
    package static func themeShorthand(_ document: ConfigSection) throws -> ThemePreset? {
        guard case .scalar? = document.value("theme"), let word = try document.string("theme") else { return nil }
        guard let preset = ThemePreset(rawValue: word) else {
            let names = ThemePreset.allCases.map(\.rawValue).joined(separator: ", ")
            throw document.error("theme", document.value("theme"),
                                 "expected a mapping of keys or a preset (\(names)), got '\(word)'")
        }
        return preset
    }

    /// With the high-contrast preset the item labels stand on the preset's discs and the hub's
    /// label on the hub: an override that brings either under 7:1 is refused at the key that
    /// broke it (`label` when given, else `hub`).
    package static func checkHighContrast(_ colors: (background: RGBColor, ring: RGBColor, hub: RGBColor, label: RGBColor),
                                  _ section: ConfigSection) throws {
        for (behind, name) in [(ThemePreset.highContrastDisc, "the discs"), (colors.hub, "the hub")] {
            let ratio = RGBColor.contrastRatio(colors.label, behind)
            guard ratio < minimumContrast else { continue }
            let key = section.value("label") != nil || name == "the discs" ? "label" : "hub"
            let shown = (ratio * 10).rounded(.down) / 10
            throw section.error(key, section.value(key),
                                "with preset high-contrast the label on \(name) must reach a contrast of 7:1 (WCAG AAA); "
                                    + "\(hex(colors.label)) on \(hex(behind)) is \(shown):1")
        }
    }

    /// `theme.font`: a font file's absolute path (read by FreeType, which interprets nothing)
    /// or a family name for fontconfig, whose name parser gives `:`, `=`, `-`, `,` and `\\`
    /// meanings (properties, sizes, escapes): a family is taken only as letters, digits,
    /// spaces, `_` and `.`.
    package static func checkFont(_ font: String, _ section: ConfigSection) throws {
        if font.hasPrefix("/") { return }
        let plain = font.utf8.count <= 128 && font.utf8.allSatisfy {
            ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x20 || $0 == 0x5F || $0 == 0x2E
        }
        guard plain else {
            throw section.error("font", section.value("font"),
                                "expected a font file's absolute path or a family name of letters, digits, spaces, '_' and '.' "
                                + "(fontconfig would read ':', '=', '-', ',' and '\\' in '\(font.prefix(64))' as more than a name)")
        }
    }

    package static func hex(_ c: RGBColor) -> String {
        let digits = String(c.xrgb, radix: 16, uppercase: true)
        return "#" + String(repeating: "0", count: 6 - digits.count) + digits
    }
}
