import DialCore

/// Colours, sizes and fonts of the dial. Every field has a default, so `Theme()` is the look of
/// the demo; the configuration maps a YAML theme onto these fields. Item colours come from
/// `MenuItem.color`. Sizes named "...Ratio" are fractions of the radius they belong to.
public struct Theme: Sendable, Equatable {
    /// Top and bottom of the background's vertical gradient.
    public var backgroundTop = RGBColor(hex: 0x222B3A)
    public var backgroundBottom = RGBColor(hex: 0x0A0D13)
    /// The track the items ride on, slightly lighter than the background, and its edge lines.
    public var ringColor = RGBColor(hex: 0x2E3949)
    public var ringEdgeColor = RGBColor(hex: 0x46536A)
    /// Width of the track as a fraction of the item radius at scale 1 (times two: a diameter).
    public var ringWidthRatio = 1.5
    /// A soft glow behind the dial and its strongest opacity.
    public var glowColor = RGBColor(hex: 0x3A4A66)
    public var glowOpacity = 0.35
    /// The hub's face, its rim, and the selected item's label in it.
    public var hubColor = RGBColor(hex: 0x1A212D)
    public var hubRimColor = RGBColor(hex: 0x5A6B86)
    public var hubTextColor = RGBColor(hex: 0xF3F5F9)
    /// Label colours on light and on dark items (chosen by the item colour's luminance).
    public var darkLabelColor = RGBColor(hex: 0x1B1712)
    public var lightLabelColor = RGBColor(hex: 0xFFFFFF)
    /// Items at or above this luminance get `darkLabelColor`.
    public var labelLuminanceThreshold = 0.55
    /// The ring drawn around the item at 12 o'clock, fading in as it arrives.
    public var selectionColor = RGBColor(hex: 0xFFFFFF)
    public var selectionWidth = 2.5
    /// Item discs darken towards the bottom to this fraction of their colour.
    public var itemBottomShade = 0.82
    /// Drop shadow under items: opacity 0...1, blur and downward offset as fractions of the radius.
    public var shadowOpacity = 0.5
    public var shadowBlurRatio = 0.22
    public var shadowOffsetRatio = 0.12
    /// Label size as a fraction of the disc radius, and the smallest size a label shrinks to
    /// before it is cut short with an ellipsis (pixels).
    public var labelSizeRatio = 0.36
    public var minimumLabelPixels = 9.0
    /// Selected label size in the hub as a fraction of the hub radius.
    public var hubLabelSizeRatio = 0.24
    /// ... but no larger than this fraction of the item radius (a big hub on a big screen).
    public var hubLabelItemRatio = 0.8
    /// Font for item labels and for the hub: a fontconfig name or a file path.
    public var fontName = "DejaVu Sans"
    public var hubFontName = "DejaVu Sans:bold"
    /// Icons are drawn above the label, or instead of it when this is true.
    public var iconReplacesLabel = false

    public init() {}
}
