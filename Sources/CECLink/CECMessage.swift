/// One CEC message as the bus carries it: the header block (initiator and destination logical
/// addresses), an opcode and its operands; at most 16 bytes in all.
package struct CECMessage: Sendable, Equatable, CustomStringConvertible {
    /// The logical address that sends (0-15).
    package var initiator: UInt8
    /// The logical address it goes to; 15 is the broadcast address.
    package var destination: UInt8
    /// nil: a poll (the header block alone).
    package var opcode: UInt8?
    package var operands: [UInt8]

    package static let broadcast: UInt8 = 15
    /// The TV's logical address.
    package static let tv: UInt8 = 0
    /// The bus's limit for a whole message.
    package static let maximumBytes = 16

    package init(from initiator: UInt8, to destination: UInt8, opcode: UInt8?, operands: [UInt8] = []) {
        self.initiator = initiator & 0xf
        self.destination = destination & 0xf
        self.opcode = opcode
        self.operands = Array(operands.prefix(Self.maximumBytes - 2))
    }

    /// The bytes on the wire (header block first).
    package var bytes: [UInt8] {
        [initiator << 4 | destination] + (opcode.map { [$0] + operands } ?? [])
    }

    /// A message from `bytes` (a received `cec_msg`'s first `len` bytes); nil when empty.
    package init?(bytes: some Collection<UInt8>) {
        guard let header = bytes.first else { return nil }
        let rest = Array(bytes.dropFirst().prefix(Self.maximumBytes - 1))
        self.init(from: header >> 4, to: header & 0xf, opcode: rest.first, operands: Array(rest.dropFirst()))
    }

    package var isBroadcast: Bool { destination == Self.broadcast }

    package var description: String {
        let name = opcode.map { CECOpcode(rawValue: $0).map { "\($0)" } ?? String(format2: $0) } ?? "poll"
        return "\(name) \(initiator)->\(destination)" + (operands.isEmpty ? "" : " " + operands.map { String(format2: $0) }.joined(separator: ":"))
    }
}

extension String {
    /// Two hex digits.
    init(format2 value: UInt8) {
        let digits = Array("0123456789abcdef")
        self = String([digits[Int(value >> 4)], digits[Int(value & 0xf)]])
    }
}

/// The opcodes the kiosk sends or answers (CEC 1.4/2.0, as linux/cec.h names them).
package enum CECOpcode: UInt8, Sendable, CustomStringConvertible {
    case featureAbort = 0x00
    case imageViewOn = 0x04
    case standby = 0x36
    case activeSource = 0x82
    case giveDevicePowerStatus = 0x8f
    case reportPowerStatus = 0x90

    package var description: String {
        switch self {
        case .featureAbort: return "Feature Abort"
        case .imageViewOn: return "Image View On"
        case .standby: return "Standby"
        case .activeSource: return "Active Source"
        case .giveDevicePowerStatus: return "Give Device Power Status"
        case .reportPowerStatus: return "Report Power Status"
        }
    }
}

/// A device's power status (the operand of Report Power Status).
package enum CECPowerStatus: UInt8, Sendable, Equatable, CustomStringConvertible {
    case on = 0
    case standby = 1
    case turningOn = 2
    case turningStandby = 3

    /// Whether the status is, or is on its way to, `on`.
    package var isOn: Bool { self == .on || self == .turningOn }

    package var description: String {
        switch self {
        case .on: return "on"
        case .standby: return "standby"
        case .turningOn: return "turning on"
        case .turningStandby: return "turning to standby"
        }
    }
}

/// A physical address a.b.c.d (four 4-bit digits); 0.0.0.0 is the TV, f.f.f.f "none".
package struct CECPhysicalAddress: Sendable, Equatable, CustomStringConvertible {
    package var rawValue: UInt16
    package init(_ rawValue: UInt16) { self.rawValue = rawValue }

    package static let invalid = CECPhysicalAddress(0xffff)
    /// An address another device can be switched to: neither the TV's nor "none".
    package var isSource: Bool { rawValue != 0 && rawValue != 0xffff }
    package var bytes: [UInt8] { [UInt8(rawValue >> 8), UInt8(rawValue & 0xff)] }

    package var description: String {
        [12, 8, 4, 0].map { String(Int(rawValue >> UInt16($0)) & 0xf, radix: 16) }.joined(separator: ".")
    }
}
