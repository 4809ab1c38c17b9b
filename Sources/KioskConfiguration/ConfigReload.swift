/// SIGHUP and `reload`: read the file again and decide what the running kiosk does with it.
/// A broken file never replaces a working menu.
package enum ConfigReload {
    /// Which parts of the configuration differ: what needs a restart (display, input) and what
    /// the service applies again (timers, the remote view). The scene is rebuilt whole, off the
    /// loop, whatever changed (KioskFeatures's `Reload`).
    package struct Changes: OptionSet, Sendable, Equatable {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }
        package static let items = Changes(rawValue: 1 << 0)
        package static let theme = Changes(rawValue: 1 << 1)
        package static let physics = Changes(rawValue: 1 << 2)
        package static let display = Changes(rawValue: 1 << 3)
        package static let input = Changes(rawValue: 1 << 4)
        package static let behaviour = Changes(rawValue: 1 << 5)
        /// The `remote:` section: its input, max_fps, mark and screenshots apply at once, a new
        /// address at the next start.
        package static let remote = Changes(rawValue: 1 << 6)

        /// A new card, connector, mode or rotation needs the output set up again (a modeset);
        /// everything else is applied between two frames.
        package var needsOutputRestart: Bool { contains(.display) }
        /// Another seat or touch calibration needs the input opened again; `run` opens the seat
        /// once, so it takes effect at the next start.
        package var needsInputRestart: Bool { contains(.input) }
    }

    package enum Outcome: Equatable {
        /// The new configuration, and what changed.
        case apply(KioskConfig, Changes)
        /// The file is valid and says what is already running.
        case unchanged
        /// Keep running the current configuration; report the error (with its line).
        case keep(ConfigError)
    }

    package static func changes(from old: KioskConfig, to new: KioskConfig) -> Changes {
        var changes: Changes = []
        // The whole menu: a change in a ring below the top is a change of items too.
        if old.menu != new.menu { changes.insert(.items) }
        if old.theme != new.theme { changes.insert(.theme) }
        if old.physics != new.physics { changes.insert(.physics) }
        if old.display != new.display { changes.insert(.display) }
        if old.input != new.input { changes.insert(.input) }
        // The screen's power settings are behaviour too (the service applies both).
        if old.behaviour != new.behaviour || old.power != new.power { changes.insert(.behaviour) }
        if old.remote != new.remote { changes.insert(.remote) }
        return changes
    }

    /// The decision for a freshly read file (`loaded` is what `ConfigLoader.load` returned or threw).
    package static func decide(current: KioskConfig, loaded: Result<KioskConfig, ConfigError>) -> Outcome {
        switch loaded {
        case .failure(let error): return .keep(error)
        case .success(let new):
            let changes = changes(from: current, to: new)
            return changes.isEmpty ? .unchanged : .apply(new, changes)
        }
    }

    /// Reads `path` again (no path: the demo stays) and decides, comparing the running
    /// configuration with the file's as `adjusted` turns it into a running one (`run --items`).
    package static func reload(path: String?, current: KioskConfig,
                               adjusted: (KioskConfig) -> KioskConfig = { $0 }) -> Outcome {
        decide(current: current, loaded: Result { try adjusted(ConfigLoader.load(path: path)) }.mapError { error in
            error as? ConfigError
                ?? ConfigError(file: path ?? "-", line: nil, key: nil, message: "\(error)")
        })
    }
}
