import DialCore

/// Colours, sizes and fonts of the dial: the one theme. `Theme()` is the look of the demo; the
/// configuration's `theme` section sets the four base colours (through
/// `init(background:ring:hub:label:)`, which derives the others from them), the font and the
/// label size. Item colours come from `MenuItem.color`. Sizes named "...Ratio" are fractions of
/// the radius they belong to.
public struct Theme: Sendable, Equatable {
    /// Top and bottom of the background's vertical gradient.
    public var backgroundTop: RGBColor
    public var backgroundBottom: RGBColor
    /// The track the items ride on, slightly lighter than the background, and its edge lines.
    public var ringColor: RGBColor
    public var ringEdgeColor: RGBColor
    /// Width of the track as a fraction of the item radius at scale 1 (times two: a diameter).
    public var ringWidthRatio = 1.5
    /// A soft glow behind the dial and its strongest opacity.
    public var glowColor: RGBColor
    public var glowOpacity = 0.35
    /// The hub's face, its rim, and the selected item's label in it.
    public var hubColor: RGBColor
    public var hubRimColor: RGBColor
    public var hubTextColor: RGBColor
    /// Label colours on light and on dark items (chosen by the item colour's luminance).
    public var darkLabelColor = RGBColor(hex: 0x1B1712)
    public var lightLabelColor: RGBColor
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
    /// The configuration's `label_size`: label pixels at item scale 1, in place of
    /// `labelSizeRatio` once `sized(forItemRadius:)` knows the disc radius.
    public var labelPixels: Double?
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
    /// Every item's disc in this colour instead of its own (`MenuItem.color`); nil: their own.
    /// The high-contrast look needs it: no single label colour reaches 7:1 on every colour a
    /// menu may give its items (a mid grey allows at most 4.6:1 with black or white).
    public var itemColorOverride: RGBColor?
    /// Labels (on the items and in the hub) at this many times their size: the configuration's
    /// `label_scale`. A label still never grows past what fits in its disc or the hub (on one
    /// line or, broken at a space, on two).
    public var labelScale = 1.0

    /// The demo's colours.
    public init() {
        self.init(background: RGBColor(hex: 0x0A0D13), ring: RGBColor(hex: 0x2E3949), hub: RGBColor(hex: 0x1A212D),
                  label: RGBColor(hex: 0xFFFFFF))
    }

    /// A theme from four base colours, the rest mixed from them so that any four still match:
    /// the background is a soft vertical gradient, lighter at the top towards the ring colour;
    /// the ring's edges, the glow and the hub's rim are their colours lightened.
    public init(background: RGBColor, ring: RGBColor, hub: RGBColor, label: RGBColor) {
        let white = RGBColor(hex: 0xFFFFFF)
        backgroundBottom = background
        backgroundTop = background.mixed(with: ring, 0.5)
        ringColor = ring
        ringEdgeColor = ring.mixed(with: white, 0.12)
        glowColor = ring.mixed(with: white, 0.06)
        hubColor = hub
        hubRimColor = hub.mixed(with: white, 0.3)
        hubTextColor = label
        lightLabelColor = label
    }

    /// A preset's theme: `.standard` is `Theme()`.
    public init(preset: ThemePreset) {
        switch preset {
        case .standard: self.init()
        case .highContrast: self.init(highContrast: ThemePreset.highContrastColors)
        }
    }

    /// The high-contrast look on four base colours (the preset's own, or overrides of them):
    /// a flat background, white track edges and hub rim, no glow or shadows, every disc dark grey
    /// (`ThemePreset.highContrastDisc`, lighter than the black background so its edge shows)
    /// under `label` in bold, and the selected item ringed by a thick yellow outline (WCAG 2.x:
    /// white on the disc is 12.6:1, on black 21:1; yellow on black 19.6:1).
    public init(highContrast base: (background: RGBColor, ring: RGBColor, hub: RGBColor, label: RGBColor)) {
        self.init(background: base.background, ring: base.ring, hub: base.hub, label: base.label)
        let white = RGBColor(hex: 0xFFFFFF)
        backgroundTop = base.background
        ringEdgeColor = white
        glowOpacity = 0
        hubRimColor = white
        shadowOpacity = 0
        itemBottomShade = 1
        itemColorOverride = ThemePreset.highContrastDisc
        darkLabelColor = base.label
        selectionColor = RGBColor(hex: 0xFFFF00)
        selectionWidth = 6
        setFont("DejaVu Sans:bold")
    }

    /// Sets the labels' font: a font file where `name` holds a slash (labels and hub alike),
    /// else a fontconfig family, bold in the hub.
    public mutating func setFont(_ name: String) {
        fontName = name
        hubFontName = name.contains("/") ? name : name + ":bold"
    }

    /// This theme for discs of `itemRadius` pixels at scale 1: `labelPixels`, when set, becomes
    /// the matching `labelSizeRatio`.
    public func sized(forItemRadius itemRadius: Double) -> Theme {
        guard let pixels = labelPixels else { return self }
        var theme = self
        theme.labelSizeRatio = pixels / max(1, itemRadius)
        return theme
    }
}

/// The looks a configuration names with `theme: {preset: NAME}` or `theme: NAME`.
public enum ThemePreset: String, CaseIterable, Sendable {
    /// The demo's look (`Theme()`).
    case standard
    /// White bold labels on dark grey discs, a black background, a thick yellow selection outline.
    case highContrast = "high-contrast"

    /// The high-contrast preset's four base colours.
    public static let highContrastColors = (background: RGBColor(hex: 0x000000), ring: RGBColor(hex: 0x1A1A1A),
                                            hub: RGBColor(hex: 0x000000), label: RGBColor(hex: 0xFFFFFF))
    /// The high-contrast preset's colour of every disc.
    public static let highContrastDisc = RGBColor(hex: 0x333333)
}
