/// Standard base64 (RFC 4648, with padding): the package's one, for the fleet's keys and
/// signatures and WebSocket's `Sec-WebSocket-Accept`. Written here rather than taken from
/// libsodium (sodium_bin2base64) so that a WebSocket handshake needs no library loaded. Strict: decoding refuses whitespace, wrong padding and stray bits.
package enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    package static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let b0 = bytes[i], b1 = i + 1 < bytes.count ? bytes[i + 1] : 0, b2 = i + 2 < bytes.count ? bytes[i + 2] : 0
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            out.append(i + 1 < bytes.count ? alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)] : UInt8(ascii: "="))
            out.append(i + 2 < bytes.count ? alphabet[Int(b2 & 0x3F)] : UInt8(ascii: "="))
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of `text`, or nil when it is not canonical base64.
    package static func decode<S: StringProtocol>(_ text: S) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 4 * 3)
        var index = 0
        while index < chars.count {
            var values: [UInt8] = []
            var padding = 0
            for c in chars[index..<index + 4] {
                if c == UInt8(ascii: "=") {
                    padding += 1
                    continue
                }
                guard padding == 0, let v = value(c) else { return nil }
                values.append(v)
            }
            // Padding only at the very end, at most two.
            if padding > 0 && (index + 4 != chars.count || padding > 2) { return nil }
            out.append(values[0] << 2 | values[1] >> 4)
            if values.count > 2 { out.append(values[1] << 4 | values[2] >> 2) } else if values[1] & 0x0F != 0 { return nil }
            if values.count > 3 { out.append(values[2] << 6 | values[3]) } else if values.count == 3 && values[2] & 0x03 != 0 { return nil }
            index += 4
        }
        return out
    }

    private static func value(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return c - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return c - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return nil
        }
    }
}
