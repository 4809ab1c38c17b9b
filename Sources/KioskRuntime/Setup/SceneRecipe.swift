import DialCore
import DialRender
import KioskConfiguration
import KioskLoop
import KioskSeams
import KioskFeatures
import RemoteView

/// The one recipe of a scene (the dial, its painter and what the loop paints): `run` (its
/// start, a new mode and a reload's preparation through RunScenes), `preview`, `simulate`,
/// `render`, `splash` and `bench` all build theirs here, so they lay out, paint and turn the
/// same frame. The rotation comes from `DisplayRotation.chosen` (KioskSeams), the one rule of
/// `--rotate`, `display.rotation` and the panel's orientation.
///
/// The painter works on the upright (logical) frame in RAM; the copy turns it onto the panel,
/// writing the dumb buffer once and never reading it (it may be write-combined).
package struct SceneRecipe {
    /// How the logical frame is turned onto the panel.
    package let rotation: DisplayRotation
    let painter: PainterChoice
    /// `--items N`: N numbered items instead of the configuration's menu (nil: the menu).
    let items: Int?

    package init(rotation: DisplayRotation, painter: PainterChoice = .dial, items: Int? = nil) {
        self.rotation = rotation
        self.painter = painter
        self.items = items
    }

    /// A command's recipe: its rotation by the rule, from its `--rotate` (`option`), the
    /// configuration's `display.rotation` and the panel's orientation (nil: no panel to ask).
    package init(option: DisplayRotation?, config: KioskConfig, panel: DisplayRotation? = nil,
         painter: PainterChoice = .dial, items: Int? = nil) {
        self.init(rotation: DisplayRotation.chosen(option: option, configured: config.display.rotation, panel: panel),
                  painter: painter, items: items)
    }

    /// The configuration as the scene shows it: `--items` replaces the menu. Pure (a reload's
    /// worker calls it); applying it twice changes nothing.
    func adjusted(_ config: KioskConfig) -> KioskConfig {
        var config = config
        if let items { config.items = DemoMenu.numbered(items) }
        return config
    }

    /// The logical (upright) frame size on a `width` x `height` panel.
    func logicalSize(panelWidth width: Int, panelHeight height: Int) -> (width: Int, height: Int) {
        rotation.logicalSize(panelWidth: width, panelHeight: height)
    }

    /// The layout of `config` (adjusted) on the logical frame of a `width` x `height` panel.
    package func setup(_ config: KioskConfig, panelWidth width: Int, panelHeight height: Int, language: String? = nil) -> DialSetup {
        let logical = logicalSize(panelWidth: width, panelHeight: height)
        return DialSetup(config: adjusted(config), width: logical.width, height: logical.height, language: language)
    }

    /// The loop's scene of `config` on a `width` x `height` logical frame (the tests' way in).
    func scene(config: KioskConfig, resting: SceneResting, width: Int, height: Int,
               icons: IconCache = IconCache()) throws -> Scene {
        try scene(DialSetup(config: adjusted(config), width: width, height: height), resting: resting, icons: icons)
    }

    /// The painter of the last scene made (held weakly: the scene owns it).
    final class ShownPainter {
        weak var painter: DialPainter?
    }

    /// The loop's scene of `setup` resting on `resting`; `icons`: the decoded icons to reuse (a
    /// reload's worker filled them); `replacing`: the painter of the scene this one replaces,
    /// whose frame and background a painter built here takes (a new mode holds one frame, not
    /// two); `prepared`: the painter a reload's worker built and prepared for `setup`; `tap`:
    /// where each painted frame also goes (the remote view).
    func scene(_ setup: DialSetup, resting: SceneResting, icons: IconCache = IconCache(), replacing shown: ShownPainter? = nil,
               prepared: DialPainter? = nil, tap: FrameTap? = nil) throws -> Scene {
        let dial: MenuDial
        switch resting {
        case .index(let index): dial = setup.makeDial(restingOn: index)
        case .path(let path): dial = setup.makeDial(at: path)
        }
        switch painter {
        case .dial:
            let painter = try prepared ?? setup.makePainter(icons: icons, replacing: shown?.painter)
            shown?.painter = painter
            let copier = ScanoutCopy(rotation: rotation)
            var marked = false
            var scene = Scene(dial: dial) { pose, target in
                let damage = painter.paint(pose)
                tap?.consumer?(painter.frame, damage)
                // The "being viewed" mark over the copy; when it comes or goes, the whole frame
                // (the buffers still hold the corner as it was).
                let mark = tap?.mark() ?? false
                let changed = mark != marked
                marked = mark
                let copied = copier.copy(painter.frame, damage: changed ? nil : damage, to: target)
                guard mark, let badge = ViewMark.rect(panelWidth: target.width, panelHeight: target.height) else { return copied }
                ViewMark.draw(into: target)
                return copied.map { $0 + [badge] }
            }
            scene.setLanguage = { painter.setLanguage($0) }
            return scene
        case .flat:
            return Scene(dial: dial) { FlatPainter.paint($0, into: $1); return nil }
        }
    }

    /// The dial and the painter a scene of `setup` would have, without the loop's paint around
    /// them: `bench` times the painter and the copy apart and counts the bytes the copy writes.
    /// The painter is prepared as `scene` prepares it (background, sprites, labels, rings).
    package func parts(_ setup: DialSetup) throws -> (dial: MenuDial, painter: DialPainter) {
        (setup.makeDial(), try setup.makePainter())
    }

    /// The panel's picture of `pose` on `setup`'s layout: what the scanout buffer would hold
    /// (`render`, `splash`).
    package func picture(_ setup: DialSetup, pose: DialPose) throws -> PixelBuffer {
        let painter = try setup.makePainter()
        painter.paint(pose)
        return painter.frame.rotated(rotation)
    }
}
