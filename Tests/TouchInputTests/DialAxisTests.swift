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

    @Test func theIoctlNumberIsLinuxs() {
        // EVIOCSCLOCKID as linux/input.h defines it.
        #expect(DialAxisDevices.eviocsclockid == 0x4004_45A0)
    }
}

/// Which evdev nodes DialKiosk opens itself: REL_DIAL devices on its seat, as udev assigns them.
@Suite struct DialAxisPolicyTests {
    /// The rotary-encoder driver's node with `linux,axis = <7>`: capabilities/rel is "80".
    private func dial(seat: String? = nil, rel: String? = "80", sysname: String = "event5", ignored: Bool = false) -> EvdevNode {
        EvdevNode(devnode: "/dev/input/" + sysname, sysname: sysname, name: "rotary@0", seat: seat, relativeAxes: rel, ignored: ignored)
    }

    @Test func aDialOnTheSeatIsRead() {
        #expect(DialAxisPolicy.verdict(dial(), seat: "seat0") == .read, "ID_SEAT unset is seat0")
        #expect(DialAxisPolicy.verdict(dial(seat: "seat0"), seat: "seat0") == .read)
        #expect(DialAxisPolicy.verdict(dial(seat: ""), seat: "seat0") == .read, "an empty ID_SEAT is unset")
        #expect(DialAxisPolicy.verdict(dial(seat: "seat-kiosk"), seat: "seat-kiosk") == .read)
    }

    @Test func aDialOnAnotherSeatIsLeftAlone() {
        #expect(DialAxisPolicy.verdict(dial(seat: "seat1"), seat: "seat0") == .otherSeat("seat1"))
        #expect(DialAxisPolicy.verdict(dial(), seat: "seat1") == .otherSeat("seat0"), "unset is seat0, not any seat")
    }

    @Test func onlyRelDialNodesAreOpened() {
        // A wheel mouse: REL_X, REL_Y, REL_HWHEEL, REL_WHEEL, hi-res wheels (0x1943); no REL_DIAL.
        #expect(DialAxisPolicy.verdict(dial(rel: "1943"), seat: "seat0") == .notADial)
        #expect(DialAxisPolicy.verdict(dial(rel: "0"), seat: "seat0") == .notADial)
        #expect(DialAxisPolicy.verdict(dial(rel: nil), seat: "seat0") == .notADial, "a keyboard has no capabilities/rel")
        #expect(DialAxisPolicy.verdict(dial(rel: "1c3"), seat: "seat0") == .read, "REL_DIAL beside other axes")
        // Words for a wider bitmap: the low bits are in the last one.
        #expect(DialAxisPolicy.verdict(dial(rel: "80 0"), seat: "seat0") == .notADial)
        #expect(DialAxisPolicy.verdict(dial(rel: "0 80"), seat: "seat0") == .read)
        #expect(DialAxisPolicy.verdict(dial(sysname: "mouse2"), seat: "seat0") == .notADial, "only evdev nodes")
    }

    @Test func ignoredDevicesStayIgnored() {
        #expect(DialAxisPolicy.verdict(dial(ignored: true), seat: "seat0") == .ignored)
    }
}
