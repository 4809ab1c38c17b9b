import DialCore
import DialRender

/// What one configuration makes for one frame: the dial's parameters and the painter's theme.
/// `run`, `render` and `simulate` all build from here, so the same file and the same state give
/// the same picture everywhere (the VM test compares `run`'s scanout with `render`).
struct DialSetup {
    let config: KioskConfig
    /// The logical (upright) frame the dial is laid out on.
    let width: Int
    let height: Int

    init(config: KioskConfig, width: Int, height: Int) {
        self.config = config
        self.width = width
        self.height = height
    }

    var items: [MenuItem] { config.items }

    var geometry: DialGeometry {
        .fitting(width: width, height: height, count: items.count, maxScale: config.physics.inflateMax)
    }

    /// A dial at rest on `index` (the default item when nil).
    func makeDial(restingOn index: Int? = nil) -> Dial {
        Dial(items: items, geometry: geometry, physics: config.physicsSettings, inflate: config.inflate,
             screen: (Double(width), Double(height)), initialIndex: index ?? config.defaultIndex,
             startHidden: config.startsHidden)
    }

    /// The pose `render` paints: the ring turned by `rotation`, the show animation frozen at
    /// `showProgress` (nil: fully shown).
    func pose(rotation: Double, showProgress: Double? = nil) -> DialPose {
        let builder = PoseBuilder(layout: DialLayout(count: items.count), geometry: geometry, inflate: config.inflate)
        guard let p = showProgress else { return builder.pose(rotation: rotation, visibility: .shown, time: 0) }
        return builder.pose(rotation: rotation, visibility: .showing(since: 0), time: p * builder.reveal.totalDuration)
    }

    /// The configured theme, its label size resolved for this geometry.
    var theme: Theme { config.theme.sized(forItemRadius: geometry.itemRadius) }

    /// The painter for this configuration, with its icons and fonts loaded and its background
    /// and labels prepared (so no frame pays for them). `check-config` builds it too: whatever
    /// `run` would refuse, it refuses.
    func makePainter() throws -> DialPainter {
        let painter = try DialPainter(items: items, theme: theme, width: width, height: height)
        painter.prepare(for: geometry)
        return painter
    }
}
