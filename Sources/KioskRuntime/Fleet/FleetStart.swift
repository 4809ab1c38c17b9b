import FleetConfig
import KioskConfiguration
import KioskReporting
import KioskFeatures

/// `run` with a `fleet:` section: the trusted keys read, the state folder's configuration
/// chosen (never a pending one), every problem logged; the kiosk runs whatever comes of it.
package enum FleetStart {
    package static func bridge(settings: FleetSettings, local: KioskConfig, stateDir: String?, environment: [String: String],
                       logger: JournalLogger) -> FleetBridge {
        let store = FleetStore(directory: FleetStore.directory(option: stateDir, environment: environment),
                               crashPoint: environment["DIALKIOSK_FLEET_CRASH_AT"])
        let (keys, problems) = FleetKeys.load(settings.trustedKeys)
        for problem in problems { logger.error("fleet: trusted key \(problem)") }
        if keys.isEmpty { logger.error("fleet: no trusted key could be read; every bundle will be refused") }
        do { try Sodium.load() } catch { logger.error("fleet: \(error); every bundle will be refused") }
        let startup = FleetStartup.choose(store: store, keys: keys, local: local, allowCommands: settings.allowCommands)
        for line in startup.log { logger.warning(line) }
        let clientID = MQTTSettings.clientID(configured: local.mqtt?.clientID, machineID: MQTTBridge.machineID())
        let bridge = FleetBridge(settings: settings, store: store, clientID: clientID, keys: keys, startup: startup, logger: logger)
        logger.info("fleet: state in \(store.directory); running "
                    + (startup.bundle.map { "pushed serial \($0.serial)" } ?? "the local file"))
        return bridge
    }
}
