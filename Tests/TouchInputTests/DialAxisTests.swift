import KioskSeams
import Testing
@testable import TouchInput

/// REL_DIAL encoders are read from evdev directly (libinput passes REL_DIAL to no client).
@Suite struct DialAxisTests {
    /// One `struct input_event` as 64-bit Linux writes it (24 bytes, little-endian).
    private func event(seconds: Int64, micros: Int64, type: UInt16, code: UInt16, value: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        withUnsafeBytes(of: seconds.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: micros.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: type.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: code.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        return bytes
    }

    @Test func eachDialUnitIsOneStepAtItsTime() {
        let bytes = event(seconds: 12, micros: 500_000, type: 2, code: 7, value: 1)
            + event(seconds: 12, micros: 500_000, type: 0, code: 0, value: 0)       // SYN_REPORT
            + event(seconds: 13, micros: 250_000, type: 2, code: 7, value: -2)
            + event(seconds: 14, micros: 0, type: 2, code: 8, value: -1)             // REL_WHEEL: libinput's
            + event(seconds: 15, micros: 0, type: 1, code: 7, value: 1)              // a key with code 7
            + Array(event(seconds: 16, micros: 0, type: 2, code: 7, value: 1).prefix(20))  // a partial event
        let out = bytes.withUnsafeBytes { DialAxisDecoder.commands($0) }
        #expect(out == [.command(.step(1), time: 12.5), .command(.step(-1), time: 13.25), .command(.step(-1), time: 13.25)])
    }

    @Test func theIoctlNumbersAreLinuxs() {
        // EVIOCGBIT(EV_REL, 2) and EVIOCSCLOCKID as linux/input.h defines them.
        #expect(DialAxisDevices.eviocgbit(type: DialAxisDevices.evRel, size: 2) == 0x8002_4522)
        #expect(DialAxisDevices.eviocsclockid == 0x4004_45A0)
    }
}
