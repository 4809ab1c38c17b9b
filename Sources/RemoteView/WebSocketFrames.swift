/// RFC 6455 framing for RFB: the viewer's masked frames in, unmasked binary frames out. Each
/// frame is bounded before it is kept, and read strictly (5.2, 5.5): reserved bits, unknown
/// opcodes, unmasked client frames, fragmented or long control frames and a continuation
/// without a start end the connection with a close frame of the matching status. Text frames
/// are read as binary (noVNC sends binary only). A peer owes at most one pong: a ping while
/// the last pong has not left (a peer that pings and never reads) ends it too, so nothing it
/// sends makes the queue grow.
struct WebSocketFrames {
    static let maximumPayload = 64 * 1024
    /// The most input held before a frame is complete: its longest header and payload.
    static let maximumPending = 14 + maximumPayload

    enum Failure: Error, Equatable, CustomStringConvertible {
        case tooLong, unmasked, reserved, opcode(UInt8), control, continuation, pingFlood

        /// The close frame's status code (RFC 6455 7.4.1).
        var status: UInt16 {
            switch self {
            case .tooLong: return 1009
            case .pingFlood: return 1008
            default: return 1002
            }
        }

        var description: String {
            switch self {
            case .tooLong: return "a WebSocket frame that is too long"
            case .unmasked: return "a WebSocket frame that is not masked"
            case .reserved: return "a WebSocket frame with reserved bits set"
            case .opcode(let o): return "a WebSocket frame of unknown opcode \(o)"
            case .control: return "a fragmented or over-125-byte WebSocket control frame"
            case .continuation: return "a WebSocket continuation out of place"
            case .pingFlood: return "a WebSocket ping while a pong was still owed"
            }
        }
    }

    private var pending: [UInt8] = []
    /// A close frame came (the viewer left), with its status code if it gave one.
    private(set) var closed = false
    private(set) var closeStatus: UInt16?
    /// The pong owed for the last ping, not handed to the writer yet.
    private(set) var pong: [UInt8]?
    /// A pong is owed: from the ping until the writer says it left (`pongSent`).
    private(set) var owesPong = false
    /// A fragmented data message is open (its continuations may follow).
    private var inMessage = false

    /// The RFB bytes in the complete frames received so far.
    mutating func receive(_ bytes: ArraySlice<UInt8>) throws -> [UInt8] {
        guard !closed else { return [] }
        pending += bytes
        var out: [UInt8] = []
        while pending.count >= 2 {
            let fin = pending[0] & 0x80 != 0
            let opcode = pending[0] & 0x0F
            guard pending[0] & 0x70 == 0 else { throw Failure.reserved }
            guard [0, 1, 2, 8, 9, 10].contains(opcode) else { throw Failure.opcode(opcode) }
            guard pending[1] & 0x80 != 0 else { throw Failure.unmasked }
            var length = Int(pending[1] & 0x7F)
            if opcode >= 8 { guard fin, length <= 125 else { throw Failure.control } }
            var at = 2
            if length == 126 {
                guard pending.count >= 4 else { break }
                length = Int(pending[2]) << 8 | Int(pending[3])
                at = 4
            } else if length == 127 {
                guard pending.count >= 10 else { break }
                guard pending[2..<6].allSatisfy({ $0 == 0 }) else { throw Failure.tooLong }
                length = pending[6..<10].reduce(0) { $0 << 8 | Int($1) }
                at = 10
            }
            guard length <= Self.maximumPayload else { throw Failure.tooLong }
            guard pending.count >= at + 4 + length else { break }
            let mask = Array(pending[at..<(at + 4)])
            var payload = Array(pending[(at + 4)..<(at + 4 + length)])
            for i in payload.indices { payload[i] ^= mask[i & 3] }
            pending.removeFirst(at + 4 + length)
            switch opcode {
            case 0:
                guard inMessage else { throw Failure.continuation }
                inMessage = !fin
                out += payload
            case 1, 2:
                guard !inMessage else { throw Failure.continuation }
                inMessage = !fin
                out += payload
            case 8:
                guard payload.count != 1 else { throw Failure.control }
                closed = true
                if payload.count >= 2 { closeStatus = UInt16(payload[0]) << 8 | UInt16(payload[1]) }
                pending.removeAll()
                return out
            case 9:
                guard !owesPong else { throw Failure.pingFlood }
                owesPong = true
                pong = Self.frame(payload, opcode: 10)
            default:
                break  // an unasked pong
            }
        }
        // Bounded already (a frame's header is checked before its payload is awaited); kept
        // explicit for whoever changes the checks above.
        guard pending.count <= Self.maximumPending + 4096 else { throw Failure.tooLong }
        return out
    }

    /// The pong to write next (once: the writer holds it until it has left).
    mutating func takePong() -> [UInt8]? {
        defer { pong = nil }
        return pong
    }

    /// The writer sent the pong taken: another ping may come.
    mutating func pongSent() { owesPong = false }

    /// One unmasked frame of `payload` (binary unless `opcode` says otherwise).
    static func frame(_ payload: [UInt8], opcode: UInt8 = 2) -> [UInt8] {
        var out: [UInt8] = [0x80 | opcode]
        if payload.count < 126 {
            out.append(UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            out += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            out.append(127)
            for i in (0..<8).reversed() { out.append(UInt8(truncatingIfNeeded: payload.count >> (i * 8))) }
        }
        return out + payload
    }

    /// A close frame with `status` and a short reason.
    static func close(_ status: UInt16, _ reason: String = "") -> [UInt8] {
        frame([UInt8(status >> 8), UInt8(status & 0xFF)] + Array(reason.utf8.prefix(120)), opcode: 8)
    }
}
