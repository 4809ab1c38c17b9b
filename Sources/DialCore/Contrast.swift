import RealModule

/// WCAG 2.x colour contrast: what "7:1" (level AAA for text) means, computed on plain colours.
extension RGBColor {
    /// Relative luminance 0...1 as WCAG 2.x defines it: each sRGB channel linearised
    /// (c / 12.92 up to 0.04045, else ((c + 0.055) / 1.055)^2.4), weighted 0.2126, 0.7152, 0.0722.
    public var relativeLuminance: Double {
        func linear(_ byte: UInt8) -> Double {
            let c = Double(byte) / 255
            return c <= 0.04045 ? c / 12.92 : Double.pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
    }

    /// The contrast ratio of two colours, 1...21: (lighter + 0.05) / (darker + 0.05).
    public static func contrastRatio(_ a: RGBColor, _ b: RGBColor) -> Double {
        let la = a.relativeLuminance, lb = b.relativeLuminance
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }
}
