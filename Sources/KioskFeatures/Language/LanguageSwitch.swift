import DialCore
import KioskConfiguration
import KioskLoop

/// The language the texts are shown and spoken in.
package enum ShownLanguage: Equatable, Sendable {
    /// The configuration's first language (or it has no `languages:`).
    case byDefault
    /// Another configured language, by its code.
    case other(String)

    /// The code the remainder's menu is translated to (nil: the default's texts).
    package var code: String? {
        switch self {
        case .byDefault: nil
        case .other(let code): code
        }
    }
}

/// The language's decisions, on plain data with time as an argument.
package enum LanguageRules {
    /// What a switch to `code` shows: the default's own code is the default.
    package static func target(_ code: String, defaultCode: String?) -> ShownLanguage {
        code == defaultCode ? .byDefault : .other(code)
    }

    /// What a configuration with `codes` keeps of `shown`: the same language when it has it, else
    /// the default (a reload that dropped it).
    package static func kept(_ shown: ShownLanguage, codes: [String]) -> ShownLanguage {
        guard case .other(let code) = shown, !codes.contains(code) else { return shown }
        return .byDefault
    }

    /// When the language goes back to the default: `returnAfter` seconds after the last input;
    /// nil when it is the default already or never returns.
    package static func returnDeadline(_ shown: ShownLanguage, lastInput: Double, returnAfter: Double?) -> Double? {
        guard shown != .byDefault, let returnAfter else { return nil }
        return lastInput + returnAfter
    }
}

/// The language switch: a languages ring's item activated (`FeatureNews.activated`), `language
/// <code>` on the control socket or `<base>/set/language` (the remainder replies to an unknown
/// code and wakes the screen for a known one), and the return to the default
/// `behaviour.language_return_after_seconds` after the last input (`KioskNews.languageDue`,
/// which the router's deadlines send when `returnDeadline` comes). A switch asks the loop for
/// `.language` (every text at the next frame) and tells the remainder (`languageShown`: its
/// menu's texts, the voice, the `language` and `selected` lines, the state). It hears each
/// message after the remainder, so its lines follow the remainder's.
package final class LanguageSwitch: KioskFeature {
    private var shown: ShownLanguage = .byDefault
    /// The last input's time (touch, key, encoder or control command but a screenshot).
    private var lastInput: Double
    /// What the last message's view said: the configured codes (the default first), the return
    /// time, and the item at the top (for the `selected` line a switch writes).
    private var codes: [String] = []
    private var returnAfter: Double?
    private var selected: MenuPath?

    /// `since`: the loop-clock time the kiosk started (the return counts from it until an input).
    package init(since: Double) {
        lastInput = since
    }

    /// The language shown now (nil: the default).
    package var language: String? { shown.code }

    /// When the language goes back to the default (`LanguageRules.returnDeadline`).
    package var returnDeadline: Double? { LanguageRules.returnDeadline(shown, lastInput: lastInput, returnAfter: returnAfter) }

    package func handle(_ message: LoopMessage, at time: Double, view: FeatureView) -> FeatureOutput {
        codes = view.config.languages.map(\.code)
        returnAfter = view.config.behaviour.languageReturnAfter
        selected = view.dial.selectedPath
        // A reload swaps the configuration in the remainder, which keeps the language by the same rule.
        shown = LanguageRules.kept(shown, codes: codes)
        switch message {
        case .input(let event, _, _):
            if event.time.isFinite { lastInput = max(lastInput, event.time) }
        case .news(let news):
            guard let news = news as? KioskNews else { return .none }
            switch news {
            case .command(let request):
                // A screenshot changes nothing on the glass: no activity.
                if case .screenshot = request.command { return .none }
                lastInput = max(lastInput, time)
                guard case .language(let code) = request.command, codes.contains(code) else { return .none }
                // The command's one frame, after the texts changed.
                return switchTo(code, at: time) + FeatureOutput(requests: [.frameIfDue])
            case .languageDue:
                guard let deadline = returnDeadline, time >= deadline, let code = codes.first else { return .none }
                return switchTo(code, at: time)
            default:
                break
            }
        default:
            break
        }
        return .none
    }

    package func hear(_ news: FeatureNews, at time: Double) -> FeatureOutput {
        guard case .activated(let item, _, let at) = news, let code = item.languageCode else { return .none }
        return switchTo(code, at: at)
    }

    package func nextWakeup(now: Double) -> Double? { returnDeadline }

    /// The same language again changes nothing. The painter and the dial take the code itself
    /// (the default's too: its texts are kept).
    private func switchTo(_ code: String, at time: Double) -> FeatureOutput {
        let target = LanguageRules.target(code, defaultCode: codes.first)
        guard target != shown else { return .none }
        shown = target
        return FeatureOutput(requests: [.language(code)],
                             news: [.languageShown(code: code, language: target.code, selected: selected, at: time)])
    }
}
