import Glibc
import LinuxSystem

/// The web side of the WebSocket address: one HTTP/1.1 request per connection, either the
/// upgrade to RFB over WebSocket at `/websockify` (noVNC's default path) or a GET of a file of
/// the web client's directory (Debian's noVNC, /usr/share/novnc), answered and closed. The
/// request is bounded before it is read; file names are checked against the directory.
struct WebFront {
    /// The longest request head read.
    static let maximumRequest = 8 * 1024
    /// The largest file served (noVNC's biggest module is far below it).
    static let maximumFile = 4 * 1024 * 1024

    enum Outcome: Equatable {
        /// Incomplete: read more.
        case waiting
        /// Upgraded: send `reply`, then RFB over WebSocket frames.
        case upgrade(reply: [UInt8])
        /// Send `reply` and close.
        case answer(reply: [UInt8])
    }

    let root: String?
    private(set) var head: [UInt8] = []

    init(root: String?) { self.root = root }

    /// Takes bytes of the request; what to do once the head is complete. Bytes past the head
    /// (a client that sends RFB before the 101) are returned in `rest`.
    mutating func receive(_ bytes: ArraySlice<UInt8>, rest: inout [UInt8]) -> Outcome {
        head += bytes
        guard let end = Self.endOfHead(head) else {
            return head.count > Self.maximumRequest ? .answer(reply: Self.status(431, "Request Header Fields Too Large")) : .waiting
        }
        rest = Array(head[end...])
        let lines = String(decoding: head[..<end], as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        let request = lines[0].split(separator: " ")
        guard request.count == 3, request[0] == "GET" else { return .answer(reply: Self.status(405, "Method Not Allowed")) }
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = trimmed(line[line.index(after: colon)...])
        }
        let target = String(request[1])
        let path = String(target.split(separator: "?", maxSplits: 1).first ?? "")
        if fields["upgrade"]?.lowercased() == "websocket" {
            guard path == "/websockify" || path == "/", let key = fields["sec-websocket-key"], !key.isEmpty else {
                return .answer(reply: Self.status(404, "Not Found"))
            }
            var reply = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: \(WebSocketKey.accept(key))\r\n"
            let offered = (fields["sec-websocket-protocol"] ?? "").split(separator: ",").map(trimmed)
            if offered.contains("binary") { reply += "Sec-WebSocket-Protocol: binary\r\n" }
            return .upgrade(reply: Array((reply + "\r\n").utf8))
        }
        return .answer(reply: file(path))
    }

    private func trimmed(_ s: Substring) -> String {
        String(s.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    private static func endOfHead(_ b: [UInt8]) -> Int? {
        guard b.count >= 4 else { return nil }
        for i in 3..<b.count where b[i] == 10 && b[i - 1] == 13 && b[i - 2] == 10 && b[i - 3] == 13 { return i + 1 }
        return nil
    }

    /// A file of `root` by URL path (`/` is the page that connects at once), or an error page.
    private func file(_ path: String) -> [UInt8] {
        guard let root else { return Self.status(404, "Not Found") }
        if path == "/" {
            return Array("HTTP/1.1 302 Found\r\nLocation: /vnc.html?autoconnect=true&resize=scale\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
        }
        let parts = path.split(separator: "/")
        guard !parts.isEmpty, parts.allSatisfy({ $0 != ".." && $0 != "." && !$0.hasPrefix(".") && !$0.contains("%") }) else {
            return Self.status(404, "Not Found")
        }
        let full = root + "/" + parts.joined(separator: "/")
        guard case .success(let fd) = FileDescriptor.open(full, flags: O_RDONLY | O_CLOEXEC) else { return Self.status(404, "Not Found") }
        defer { fd.close() }
        var st = stat()
        guard fstat(fd.rawValue, &st) == 0, st.st_mode & S_IFMT == S_IFREG, Int(st.st_size) <= Self.maximumFile else {
            return Self.status(404, "Not Found")
        }
        var body = [UInt8](repeating: 0, count: Int(st.st_size))
        var got = 0
        while got < body.count {
            let r = body.withUnsafeMutableBytes { fd.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[got...])) }
            guard case .success(let n) = r, n > 0 else { break }
            got += n
        }
        body.removeSubrange(got...)
        let head = "HTTP/1.1 200 OK\r\nContent-Type: \(Self.type(of: full))\r\nContent-Length: \(body.count)\r\n"
            + "Cache-Control: no-cache\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + body
    }

    static func type(of path: String) -> String {
        switch path.split(separator: ".").last ?? "" {
        case "html": return "text/html; charset=utf-8"
        case "js": return "text/javascript; charset=utf-8"
        case "css": return "text/css"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "json": return "application/json"
        case "ico": return "image/x-icon"
        case "woff", "woff2": return "font/woff2"
        default: return "application/octet-stream"
        }
    }

    static func status(_ code: Int, _ text: String) -> [UInt8] {
        Array("HTTP/1.1 \(code) \(text)\r\nContent-Length: \(text.utf8.count)\r\nConnection: close\r\n\r\n\(text)".utf8)
    }
}

/// RFC 6455 framing for RFB: the viewer's masked frames in, unmasked binary frames out. Each
/// frame is bounded before it is kept; text frames and fragments are read as binary (noVNC
/// sends binary only).
struct WebSocketFrames {
    static let maximumPayload = 64 * 1024

    enum Failure: Error, Equatable { case tooLong, unmasked }

    private var pending: [UInt8] = []
    /// A close frame came (the viewer left).
    private(set) var closed = false
    /// Pongs to send for pings received.
    var replies: [UInt8] = []

    /// The RFB bytes in the complete frames received so far.
    mutating func receive(_ bytes: ArraySlice<UInt8>) throws -> [UInt8] {
        pending += bytes
        var out: [UInt8] = []
        while pending.count >= 2 {
            let opcode = pending[0] & 0x0F
            guard pending[1] & 0x80 != 0 else { throw Failure.unmasked }
            var length = Int(pending[1] & 0x7F)
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
            case 0, 1, 2: out += payload
            case 8: closed = true; return out
            case 9: replies += Self.frame(payload, opcode: 10)
            default: break
            }
        }
        return out
    }

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
}
