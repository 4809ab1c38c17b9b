import DialCore

/// Integer channel arithmetic on packed XRGB8888 pixels. Red and blue travel together in one
/// 32-bit word (each product fits in 16 bits), green alone, so a blend is two multiplies per term.
@usableFromInline enum PixelMath {
    /// `(color * s + dst * (255 - a)) / 255` per channel, with `s <= a <= 255`: `color` weighted
    /// by `s` over `dst` covered by `a`. With `s == a` this is a plain lerp towards `color`.
    @inline(__always) @usableFromInline
    static func mix(_ dst: UInt32, _ color: UInt32, s: UInt32, a: UInt32) -> UInt32 {
        let ia = 255 &- a
        let rb = (color & 0x00FF_00FF) &* s &+ (dst & 0x00FF_00FF) &* ia
        let g = (color & 0x0000_FF00) >> 8 &* s &+ ((dst & 0x0000_FF00) >> 8) &* ia
        let rbq = (rb &+ 0x0080_0080 &+ ((rb >> 8) & 0x00FF_00FF)) >> 8 & 0x00FF_00FF
        let gq = (g &+ 0x80 &+ (g >> 8)) >> 8 & 0xFF
        return rbq | gq << 8
    }

    /// `color` with every channel scaled by `k` / 255.
    @inline(__always) @usableFromInline
    static func scale(_ color: UInt32, _ k: UInt32) -> UInt32 {
        mix(0, color, s: k, a: k)
    }

    /// Premultiplied source over `dst`: `src + dst * (255 - a) / 255`, `src` already weighted.
    @inline(__always) @usableFromInline
    static func over(_ dst: UInt32, premultiplied src: UInt32, a: UInt32) -> UInt32 {
        let ia = 255 &- a
        let rb = (dst & 0x00FF_00FF) &* ia
        let g = ((dst & 0x0000_FF00) >> 8) &* ia
        let rbq = (rb &+ 0x0080_0080 &+ ((rb >> 8) & 0x00FF_00FF)) >> 8 & 0x00FF_00FF
        let gq = (g &+ 0x80 &+ (g >> 8)) >> 8 & 0xFF
        return (rbq | gq << 8) &+ (src & 0x00FF_FFFF)
    }

    /// A 0...1 fraction as 0...255, rounded and clamped.
    @inline(__always) @usableFromInline
    static func byte(_ f: Double) -> UInt32 {
        f <= 0 ? 0 : f >= 1 ? 255 : UInt32(f * 255 + 0.5)
    }
}

extension RGBColor {
    /// Linear interpolation towards `other` by `t` (0...1), per channel.
    public func mixed(with other: RGBColor, _ t: Double) -> RGBColor {
        func ch(_ a: UInt8, _ b: UInt8) -> UInt8 {
            let v = Double(a) + (Double(b) - Double(a)) * t
            return UInt8(max(0, min(255, v.rounded())))
        }
        return RGBColor(r: ch(r, other.r), g: ch(g, other.g), b: ch(b, other.b))
    }

    /// Relative luminance 0...1 (Rec. 709 weights on gamma-encoded values; enough to choose
    /// between dark and light text).
    public var luminance: Double {
        (0.2126 * Double(r) + 0.7152 * Double(g) + 0.0722 * Double(b)) / 255
    }

    /// The colour from a packed 0x00RRGGBB pixel.
    public init(xrgb: UInt32) { self.init(hex: xrgb & 0x00FF_FFFF) }
}
