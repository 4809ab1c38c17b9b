import FleetConfig
import KioskFeatures

/// `dialkiosk config status`: what the state folder says, with or without a running kiosk.
/// Bundles are parsed, not verified (no keys needed); the kiosk verifies them at start.
enum FleetStatusReport {
    static func read(_ store: FleetStore) -> EventLine {
        var problems: [String] = []
        func slot(_ slot: FleetStore.Slot) -> ConfigBundle? {
            do {
                guard let bytes = try store.read(slot) else { return nil }
                switch ConfigBundle.parse(bytes) {
                case .success(let bundle): return bundle
                case .failure(let refusal):
                    problems.append("\(store.path(slot)): \(refusal)")
                    return nil
                }
            } catch {
                problems.append("\(error)")
                return nil
            }
        }
        let current = slot(.current), pending = slot(.pending), lastGood = slot(.lastGood)
        var highest: EventLine.Value = .int(0)
        do { highest = .int(Int(try store.highestSerial())) } catch {
            problems.append("\(error)")
            highest = .null
        }
        // Start-up never runs a pending bundle: what runs after a restart is current, else last-good.
        let running = current ?? lastGood
        let sha = running.flatMap { try? Sodium.sha256Hex($0.config) }
        func serial(_ b: ConfigBundle?) -> EventLine.Value { b.map { .int(Int($0.serial)) } ?? .null }
        return EventLine([
            ("state_dir", .string(store.directory)),
            ("source", .string(running == nil ? "local" : "fleet")),
            ("serial", serial(running)),
            ("sha256", sha.map { .string($0) } ?? .null),
            ("pending", serial(pending)),
            ("last_good", serial(lastGood)),
            ("highest_serial", highest),
            ("problems", .strings(problems)),
        ])
    }
}
