/// SIGHUP and `reload`: read the file again and decide what the running kiosk does with it.
/// A broken file never replaces a working menu.
enum ConfigReload {
    /// Which parts of the configuration differ; the loop rebuilds only those.
    struct Changes: OptionSet, Sendable, Equatable {
        let rawValue: Int
        static let items = Changes(rawValue: 1 << 0)
        static let theme = Changes(rawValue: 1 << 1)
        static let physics = Changes(rawValue: 1 << 2)
        static let display = Changes(rawValue: 1 << 3)
        static let input = Changes(rawValue: 1 << 4)
        static let behaviour = Changes(rawValue: 1 << 5)

        /// A new card, connector, mode or rotation needs the output set up again (a modeset);
        /// everything else is applied between two frames.
        var needsOutputRestart: Bool { contains(.display) }
        /// Another seat or touch calibration needs the input opened again; `run` opens the seat
        /// once, so it takes effect at the next start.
        var needsInputRestart: Bool { contains(.input) }
    }

    enum Outcome: Equatable {
        /// The new configuration, and what changed.
        case apply(KioskConfig, Changes)
        /// The file is valid and says what is already running.
        case unchanged
        /// Keep running the current configuration; report the error (with its line).
        case keep(ConfigError)
    }

    static func changes(from old: KioskConfig, to new: KioskConfig) -> Changes {
        var changes: Changes = []
        // The whole menu: a change in a ring below the top is a change of items too.
        if old.menu != new.menu { changes.insert(.items) }
        if old.theme != new.theme { changes.insert(.theme) }
        if old.physics != new.physics { changes.insert(.physics) }
        if old.display != new.display { changes.insert(.display) }
        if old.input != new.input { changes.insert(.input) }
        if old.behaviour != new.behaviour { changes.insert(.behaviour) }
        return changes
    }

    /// The decision for a freshly read file (`loaded` is what `ConfigLoader.load` returned or threw).
    static func decide(current: KioskConfig, loaded: Result<KioskConfig, ConfigError>) -> Outcome {
        switch loaded {
        case .failure(let error): return .keep(error)
        case .success(let new):
            let changes = changes(from: current, to: new)
            return changes.isEmpty ? .unchanged : .apply(new, changes)
        }
    }

    /// Reads `path` again (no path: the demo stays) and decides.
    static func reload(path: String?, current: KioskConfig) -> Outcome {
        decide(current: current, loaded: Result { try ConfigLoader.load(path: path) }.mapError { error in
            error as? ConfigError
                ?? ConfigError(file: path ?? "-", line: nil, key: nil, message: "\(error)")
        })
    }
}
