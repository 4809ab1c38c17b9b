import Glibc
import KioskConfiguration
import Testing
@testable import FleetConfig

func temporaryDirectory() -> String {
    var template = Array("/tmp/fleet-test-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
}

@Suite struct StoreTests {
    let local = KioskConfig()

    @Test func startupRunsTheConfirmedNeverThePending() throws {
        let store = FleetStore(directory: temporaryDirectory() + "/state")
        try store.store(try signed(menuText, serial: 1), in: .current)
        try store.store(try signed("items:\n  - id: pending\n    label: P\n", serial: 2), in: .pending)
        let start = FleetStartup.choose(store: store, keys: [publicKey()], local: local, allowCommands: false)
        #expect(start.bundle?.serial == 1)
        #expect(start.droppedPending == 2)
        #expect(try store.read(.pending) == nil)
    }

    @Test func aTamperedCurrentFallsBackToLastGoodThenTheLocalFile() throws {
        let store = FleetStore(directory: temporaryDirectory())
        try store.store(try signed(menuText, serial: 1), in: .lastGood)
        var tampered = try signed(menuText, serial: 2)
        tampered[tampered.count - 10] ^= 1
        try store.store(tampered, in: .current)
        let keys = [publicKey()]
        let start = FleetStartup.choose(store: store, keys: keys, local: local, allowCommands: false)
        #expect(start.bundle?.serial == 1)
        #expect(start.log.count == 1 && start.log[0].contains("current.bundle: refused"), "\(start.log)")
        // Torn (half written) last-good too: the local file.
        let good = try signed(menuText, serial: 1)
        try store.store(Array(good.prefix(good.count / 2)), in: .lastGood)
        let fallback = FleetStartup.choose(store: store, keys: keys, local: local, allowCommands: false)
        #expect(fallback.bundle == nil)
        #expect(fallback.config == local)
        #expect(fallback.log.count == 2)
    }

    @Test func promotionKeepsThePreviousAsLastGood() throws {
        let store = FleetStore(directory: temporaryDirectory())
        let one = try signed(menuText, serial: 1), two = try signed(menuText, serial: 2)
        try store.store(one, in: .current)
        try store.store(two, in: .pending)
        try store.promotePending(confirmedBytes: try store.read(.current))
        #expect(try store.read(.current) == two)
        #expect(try store.read(.lastGood) == one)
        #expect(try store.read(.pending) == nil)
    }

    @Test func theHighestSerialSurvivesAndATornOneIsAnError() throws {
        let store = FleetStore(directory: temporaryDirectory())
        #expect(try store.highestSerial() == 0)
        try store.setHighestSerial(41)
        #expect(try FleetStore(directory: store.directory).highestSerial() == 41)
        let path = store.directory + "/highest-serial"
        let file = fopen(path, "w")!
        fputs("42 check 0\n", file)
        fclose(file)
        #expect(throws: FleetError.self) { try store.highestSerial() }
    }

    @Test func stateDirectoryOrder() {
        #expect(FleetStore.directory(option: "/x", environment: ["STATE_DIRECTORY": "/y"]) == "/x")
        #expect(FleetStore.directory(option: nil, environment: ["STATE_DIRECTORY": "/y:/z"]) == "/y")
        #expect(FleetStore.directory(option: nil, environment: [:]) == "/var/lib/dialkiosk")
    }
}
