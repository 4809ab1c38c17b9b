import DialCore
import KioskSeams

/// The one line `check-config` prints for a valid file.
package enum ConfigSummary {
    package static func line(_ config: KioskConfig, file: String) -> String {
        let items = config.items, menu = config.menu
        var parts: [String] = []
        parts.append("\(items.count) item" + (items.count == 1 ? "" : "s"))
        let all = menu.everyItem
        let rings = menu.ringPaths.count
        if rings > 1 { parts[0] += " on the top ring, \(all.count) in \(rings) rings" }
        let commands = all.filter { $0.item.command != nil }.count
        if commands > 0 { parts.append("\(commands) with a command") }
        parts.append("default '\(config.behaviour.defaultItem ?? items.first?.id ?? "-")'")
        let display = config.display
        parts.append("output " + (display.connector ?? "first connected")
                     + " on " + (display.device ?? "first card")
                     + ", mode " + (display.mode?.description ?? "preferred")
                     + ", rotation \(display.rotation.degrees)")
        parts.append("seat \(config.input.seat)")
        if let minutes = config.behaviour.idleAfterMinutes, config.behaviour.idle != .none {
            parts.append("\(config.behaviour.idle.rawValue) after \(fixed(minutes, 6, trimmed: true)) min")
        }
        return "\(file): OK: " + parts.joined(separator: "; ")
    }
}
