import DialCore
import DialRender
import KioskConfiguration
import KioskRuntime

/// What `check-config` says of the words around the dial on the panel it checks for: a title or
/// hint without room (the band above or below the dial under one and a half lines of text), or
/// cut with an ellipsis, and descriptions cut in the hub, in every language; each said once.
enum TextChecks {
    static func warnings(_ setup: DialSetup) throws -> [String] {
        let config = setup.config
        let languages: [Language?] = config.languages.isEmpty ? [nil] : config.languages.map { $0 }
        let size = "\(setup.width)x\(setup.height)"
        var out: [String] = [], seen = Set<String>()
        func add(_ line: String) { if seen.insert(line).inserted { out.append(line) } }
        let g = setup.geometry
        for language in languages {
            let words = try DialWords(theme: setup.theme, shape: config.display.shape, maxScale: config.physics.inflate.maxScale,
                                      title: config.texts.title, hint: config.texts.hint, language: language?.code)
            // A language's own text is named by its code; a text the same in every language once.
            func suffix(_ own: String?, _ base: String?) -> String {
                guard let language, own != base else { return "" }
                return " (\(language.code))"
            }
            for (top, key) in [(true, "text.title"), (false, "text.hint")] {
                guard let placed = words.place(top, geometry: g, width: setup.width, height: setup.height) else { continue }
                if placed.noRoom {
                    add("\(key): no room \(top ? "above" : "below") the dial on a \(size) frame"
                        + (config.display.shape == .round ? " (a round panel has none)" : " (the free band is under one and a half lines)")
                        + "; it is not shown")
                } else if placed.words?.ellipsised == true {
                    let text = top ? config.texts.title : config.texts.hint
                    add("\(key)\(suffix(text?.text(in: language?.code), text?.base)): does not fit on one line across a \(size) frame; it is cut with an ellipsis")
                }
            }
            for entry in setup.menu.everyItem {
                guard let text = entry.item.translated(to: language?.code).description else { continue }
                if words.descriptionIsCut(text, geometry: g) {
                    let own = suffix(text, entry.item.translated(to: config.languages.first?.code).description)
                    add("\(ConfigItemReader.keyPath(entry.indices)).description\(own): does not fit in the hub on a \(size) "
                        + "frame; it is cut with an ellipsis")
                }
            }
        }
        return out
    }
}
