import KioskSeams
import RealModule

/// Plain data shared by the core, the painter and the configuration: what the menu holds and
/// what one frame of it looks like. No behaviour lives here.

/// A colour as 8-bit red, green, blue.
public struct RGBColor: Sendable, Equatable, Hashable {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public init(r: UInt8, g: UInt8, b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }
    /// From 0xRRGGBB.
    public init(hex: UInt32) {
        self.init(r: UInt8((hex >> 16) & 0xFF), g: UInt8((hex >> 8) & 0xFF), b: UInt8(hex & 0xFF))
    }
    /// 0x00RRGGBB, the XRGB8888 pixel of this colour.
    public var xrgb: UInt32 { UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b) }
}

/// One entry of the menu.
public struct MenuItem: Sendable, Equatable {
    /// Stable identifier reported in events and used by `select <id>`.
    public var id: String
    /// Text drawn in the item's disc (and large in the hub when selected).
    public var label: String
    public var color: RGBColor
    /// Optional PNG drawn above or instead of the label.
    public var iconPath: String?
    /// Optional argv run (without a shell) when the item is activated.
    public var command: [String]?
    /// Seconds the command may run before its process group is ended (nil: the configuration's
    /// `behaviour.command_timeout_seconds`).
    public var commandTimeout: Double?
    /// What is spoken when the ring rests on the item (nil: its label); an icon without a
    /// label gets its voice here.
    public var speech: String?
    /// What is spoken as the name of the ring this item opens (nil: `speech`, then the label).
    public var ringSpeech: String?
    /// Where the item's live text comes from (`live:`); nil: only `set` requests change it.
    public var live: LiveBinding?
    /// A value item (`value:`): activating it opens a value dial.
    public var value: ValueSettings?
    /// A longer text shown in the hub under the label while the item is selected, and spoken
    /// after its name (a price, an opening time).
    public var description: String?
    /// The item's texts in languages other than the default, by language code.
    public var translations: [String: ItemTexts] = [:]
    /// Set on the items of a languages ring: choosing the item switches to this language.
    public var languageCode: String?

    public init(id: String, label: String, color: RGBColor, iconPath: String? = nil, command: [String]? = nil,
                commandTimeout: Double? = nil, speech: String? = nil, ringSpeech: String? = nil) {
        self.id = id
        self.label = label
        self.color = color
        self.iconPath = iconPath
        self.command = command
        self.commandTimeout = commandTimeout
        self.speech = speech
        self.ringSpeech = ringSpeech
    }
}

/// The demo menu: the ten beers of the dial menu tutorial (seed 000), with distinct colours.
public enum DemoMenu {
    public static let items: [MenuItem] = {
        let names = ["Pale lager", "Witbier", "Pilsner", "Weissbier", "APA", "IPA",
                     "English Bitter", "Dark lager", "Porter", "Stout"]
        let colors: [UInt32] = [0xE8B84A, 0xF2D16B, 0xD9A42B, 0xE3C26F, 0xE07B39,
                                0xC8552E, 0xB3652B, 0x8E4A2A, 0x5E3523, 0x3B241A]
        return zip(names, colors).map { name, hex in
            let id = String(name.lowercased().map { $0 == " " ? "-" : $0 })
            return MenuItem(id: id, label: name, color: RGBColor(hex: hex))
        }
    }()

    /// `count` generic items (for `--items N`), cycling through a palette.
    public static func numbered(_ count: Int) -> [MenuItem] {
        (0..<max(0, count)).map { i in
            MenuItem(id: "item-\(i + 1)", label: "Item \(i + 1)", color: paletteColor(i))
        }
    }

    /// The colour of the item at `index` (from 0) when nothing else gives one: the palette of
    /// `numbered`, cycled.
    public static func paletteColor(_ index: Int) -> RGBColor {
        let palette: [UInt32] = [0xE8B84A, 0x4AA3E8, 0x6BCB77, 0xE05A5A, 0xA77BE0, 0xE09A4A,
                                 0x4AD0C8, 0xD8608E, 0x9BBF3A, 0x6C7FE0, 0xC9A36B, 0x58B0A0]
        return RGBColor(hex: palette[((index % palette.count) + palette.count) % palette.count])
    }
}

/// Where the dial sits on the (unrotated) frame, in pixels.
public struct DialGeometry: Sendable, Equatable {
    public var center: Point
    /// Radius of the circle the item centres lie on.
    public var ringRadius: Double
    /// Radius of an item's disc at scale 1.
    public var itemRadius: Double
    /// Radius of the hub; a tap inside it activates, a touch inside it never rotates.
    public var hubRadius: Double

    public init(center: Point, ringRadius: Double, itemRadius: Double, hubRadius: Double) {
        self.center = center
        self.ringRadius = ringRadius
        self.itemRadius = itemRadius
        self.hubRadius = hubRadius
    }

    /// The geometry that fits `count` items on a frame of `width` x `height`: the inflated top
    /// item (scale `maxScale`) stays inside the frame and neighbours at rest do not touch.
    public static func fitting(width: Int, height: Int, count: Int, maxScale: Double = 1.33) -> DialGeometry {
        let w = Double(width), h = Double(height)
        let half = min(w, h) / 2
        let n = Double(max(count, 3))
        // Ring radius R and item radius r with R + maxScale*r = 0.96*half and chord spacing
        // 2 R sin(pi/n) >= 2.3 r (room between neighbours at rest).
        let spacing = Double.sin(Double.pi / n) / 1.15
        let ring = 0.96 * half / (1 + maxScale * spacing)
        let item = min(ring * spacing, half * 0.2)
        return DialGeometry(center: Point(x: w / 2, y: h / 2), ringRadius: ring,
                            itemRadius: item, hubRadius: max(ring - item * maxScale - 6, ring * 0.35))
    }
}

/// How one item looks in one frame.
public struct ItemPose: Sendable, Equatable {
    /// Centre of the item's disc, in frame pixels.
    public var center: Point
    /// Scale of the disc relative to `DialGeometry.itemRadius` (0.66 far ... 1.33 at the top,
    /// times the show/hide animation's scale).
    public var scale: Double
    /// Opacity 0...1 from the show/hide animation.
    public var alpha: Double

    public init(center: Point, scale: Double, alpha: Double) {
        self.center = center
        self.scale = scale
        self.alpha = alpha
    }
}

/// Everything a painter needs for one frame besides the menu itself.
public struct DialPose: Sendable, Equatable {
    public var geometry: DialGeometry
    /// One pose per menu item, in menu order.
    public var items: [ItemPose]
    /// The item at (or nearest) 12 o'clock, shown large in the hub; nil for an empty menu.
    public var selected: Int?
    /// Total turn of the ring since start, radians, positive clockwise.
    public var rotation: Double
    /// 0 = collapsed into the hub, 1 = fully shown.
    public var visibility: Double
    /// The ring whose slots `items` are (`MenuTree.slotItems(ofRing:)`); the top ring for a
    /// menu without nesting.
    public var ring: MenuPath
    /// Each slot's live state (`ItemState`), in slot order; empty when no item has any.
    public var states: [ItemState?] = []
    /// The value dial open over the ring (nil: none).
    public var valueDial: ValueDialPose?

    public init(geometry: DialGeometry, items: [ItemPose], selected: Int?, rotation: Double, visibility: Double,
                ring: MenuPath = .top) {
        self.geometry = geometry
        self.items = items
        self.selected = selected
        self.rotation = rotation
        self.visibility = visibility
        self.ring = ring
    }
}
