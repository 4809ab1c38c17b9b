import Glibc
import LinuxSystem

/// The web side of the WebSocket address: one HTTP/1.1 request per connection, either the
/// upgrade to RFB over WebSocket at `/websockify` (noVNC's default path) or a GET of a file of
/// the web client's directory (Debian's noVNC, /usr/share/novnc), answered and closed. The
/// request is bounded before it is read; file names are checked against the directory; who
/// may ask (Host, Origin, token) is `WebGate`'s decision, taken before anything is served.
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
        /// Send `reply` (403) and close; `why` goes to the (rate-limited) log.
        case refuse(reply: [UInt8], why: String)
    }

    let root: String?
    let gate: WebGate
    private(set) var head: [UInt8] = []

    init(root: String?, gate: WebGate = WebGate()) {
        self.root = root
        self.gate = gate
    }

    /// Takes bytes of the request; what to do once the head is complete. Bytes past the head
    /// (a client that sends RFB before the 101) are returned in `rest`. The checks follow RFC
    /// 6455's handshake (4.2.1) after the gate's: method, Host, then the upgrade's own fields,
    /// then Origin and token.
    mutating func receive(_ bytes: ArraySlice<UInt8>, rest: inout [UInt8]) -> Outcome {
        head += bytes
        guard let end = Self.endOfHead(head) else {
            return head.count > Self.maximumRequest ? .answer(reply: Self.status(431, "Request Header Fields Too Large")) : .waiting
        }
        rest = Array(head[end...])
        let lines = String(decoding: head[..<end], as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        let request = lines[0].split(separator: " ")
        guard request.count == 3, request[2].hasPrefix("HTTP/1.") else { return .answer(reply: Self.status(400, "Bad Request")) }
        guard request[0] == "GET" else {
            return .answer(reply: Self.status(405, "Method Not Allowed", fields: "Allow: GET\r\n"))
        }
        var fields: [String: String] = [:]
        var hosts = 0
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            if name == "host" { hosts += 1 }
            fields[name] = trimmed(line[line.index(after: colon)...])
        }
        // One Host (RFC 9112 3.2): two could pass the check with one and mean the other.
        if hosts > 1 { return .answer(reply: Self.status(400, "Bad Request")) }
        if let refusal = gate.admits(host: fields["host"]) { return .refuse(reply: Self.status(403, "Forbidden"), why: "\(refusal)") }
        let host = fields["host"] ?? ""
        let target = String(request[1])
        let path = String(target.split(separator: "?", maxSplits: 1).first ?? "")
        guard WebGate.list(fields["upgrade"], contains: "websocket") else { return .answer(reply: file(path)) }
        guard WebGate.isWebSocketPath(path) else { return .answer(reply: Self.status(404, "Not Found")) }
        guard fields["sec-websocket-version"] == "13" else {
            return .answer(reply: Self.status(426, "Upgrade Required", fields: "Sec-WebSocket-Version: 13\r\n"))
        }
        guard WebGate.list(fields["connection"], contains: "upgrade"), let key = fields["sec-websocket-key"], WebGate.isKey(key) else {
            return .answer(reply: Self.status(400, "Bad Request"))
        }
        if let refusal = gate.admits(origin: fields["origin"], host: host) ?? gate.admits(path: path) {
            return .refuse(reply: Self.status(403, "Forbidden"), why: "\(refusal)")
        }
        var reply = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: \(WebSocketKey.accept(key))\r\n"
        let offered = (fields["sec-websocket-protocol"] ?? "").split(separator: ",").map(trimmed)
        if offered.contains("binary") { reply += "Sec-WebSocket-Protocol: binary\r\n" }
        return .upgrade(reply: Array((reply + "\r\n").utf8))
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

    static func status(_ code: Int, _ text: String, fields: String = "") -> [UInt8] {
        Array("HTTP/1.1 \(code) \(text)\r\n\(fields)Content-Length: \(text.utf8.count)\r\nConnection: close\r\n\r\n\(text)".utf8)
    }
}

