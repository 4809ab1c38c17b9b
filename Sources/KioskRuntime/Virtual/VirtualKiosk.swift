import KioskConfiguration
import KioskReporting

/// A whole kiosk with no device: the virtual display paced by a timer and a touch script as its
/// input, everything else as `run` assembles it (service, control socket, MQTT, remote view,
/// reloads). A test starts one in a line:
///
///     let kiosk = try VirtualKiosk.make(config: config, script: path, exitAfter: 2)
///
/// and runs it (`run()`), or drives its loop and service turn by turn.
package enum VirtualKiosk {
    /// `size` and `refreshHz`: the virtual display's mode. `script`: the touch script it reads
    /// (nil: an empty one, the kiosk runs untouched). `eventsFD`: where the event lines go.
    package static func make(config: KioskConfig = KioskConfig(), configPath: String? = nil,
                             width: Int = 800, height: Int = 480, refreshHz: Double = 60,
                             script: String? = nil, control: String? = nil, exitAfter: Double? = nil,
                             environment: [String: String] = [:], eventsFD: Int32 = 1,
                             logger: JournalLogger = JournalLogger(format: LogFormat(journalPrefixes: false))) throws -> Kiosk {
        var settings = Kiosk.Settings(config: config, configPath: configPath)
        settings.control = control
        settings.exitAfter = exitAfter
        var devices = Kiosk.Devices(display: .virtual(VirtualDisplaySpec(width: width, height: height, refreshHz: refreshHz)),
                                    input: .script(path: script ?? "/dev/null"), environment: environment, logger: logger)
        devices.eventsFD = eventsFD
        return try Kiosk(settings: settings, devices: devices)
    }
}
