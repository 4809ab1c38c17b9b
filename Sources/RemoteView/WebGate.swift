/// Who may talk to the WebSocket address, as pure decisions on a request's header fields. A
/// browser on this machine will open any page's WebSocket to loopback, so "listens on
/// loopback" alone is no protection: another site's page (or a name of its own rebound to
/// 127.0.0.1) could drive the dial. The `Host` must name this machine on the listener's port
/// (against DNS rebinding), the `Origin` (sent by every browser on a WebSocket) must be the
/// page's own, and where a token is set the upgrade's path must carry it (against a local
/// process that writes its own headers).
struct WebGate: Equatable, Sendable {
    /// The listener's TCP port (nil: a Unix socket, reached through a tunnel on any port).
    var port: Int?
    /// Host names besides loopback, lowercased, without a port.
    var allowedHosts: [String] = []
    /// Origins besides the page's own, lowercased (`https://kiosk.example:443` as a browser sends it).
    var allowedOrigins: [String] = []
    /// The secret the upgrade's path carries as `/websockify/TOKEN` (nil: none asked).
    var token: [UInt8]?

    /// Why a request is refused (403), in words for the log line.
    enum Refusal: Equatable, Sendable, CustomStringConvertible {
        case host(String)
        case origin(String)
        case token

        var description: String {
            switch self {
            case .host(let h): return "Host '\(h.prefix(80))' is not this machine's on its port"
            case .origin(let o): return "Origin '\(o.prefix(80))' is not the page's"
            case .token: return "no or a wrong token in the WebSocket path"
            }
        }
    }

    /// The `Host` field (nil: absent) passes: a loopback name or address, or an allowed name,
    /// with the listener's port.
    func admits(host field: String?) -> Refusal? {
        guard let field, let (name, port) = Self.split(host: field.lowercased()) else { return .host(field ?? "") }
        guard Self.isLoopback(name) || allowedHosts.contains(name) else { return .host(field) }
        if let listening = self.port {
            // Without a port a browser means 80.
            guard (port ?? 80) == listening else { return .host(field) }
        }
        return nil
    }

    /// The `Origin` field (nil: absent, a client that is no browser) passes: the page's own
    /// (`http://` and the admitted `Host`) or an allowed one.
    func admits(origin field: String?, host: String) -> Refusal? {
        guard let field else { return nil }
        let origin = field.lowercased()
        if origin == "http://" + host.lowercased() || allowedOrigins.contains(origin) { return nil }
        return .origin(field)
    }

    /// The upgrade's path: `/websockify` (or `/`) without a token, `/websockify/TOKEN` with one.
    func admits(path: String) -> Refusal? {
        guard let token else { return nil }
        let prefix = Array("/websockify/".utf8)
        let bytes = Array(path.utf8)
        guard bytes.count == prefix.count + token.count, bytes.starts(with: prefix) else { return .token }
        // Constant time over the token's length: the answer's timing says nothing of how much matched.
        var difference: UInt8 = 0
        for (a, b) in zip(bytes.dropFirst(prefix.count), token) { difference |= a ^ b }
        return difference == 0 ? nil : .token
    }

    /// The paths an upgrade may ask for before the token is checked.
    static func isWebSocketPath(_ path: String) -> Bool {
        path == "/websockify" || path == "/" || path.hasPrefix("/websockify/")
    }

    /// `name[:port]` or `[v6][:port]` (the name keeps its brackets); nil when malformed.
    static func split(host: String) -> (String, Int?)? {
        var name = Substring(host), portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            name = host[...close]
            let after = host[host.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portText = after.dropFirst()
            }
        } else if let colon = host.firstIndex(of: ":") {
            name = host[..<colon]
            portText = host[host.index(after: colon)...]
        }
        guard !name.isEmpty else { return nil }
        guard let portText else { return (String(name), nil) }
        guard portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }), let port = Int(portText), (1...65_535).contains(port) else {
            return nil
        }
        return (String(name), port)
    }

    /// `localhost`, 127.0.0.0/8 in dotted quad, or `[::1]`.
    static func isLoopback(_ name: String) -> Bool {
        if name == "localhost" || name == "[::1]" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { p in p.count <= 3 && !p.isEmpty && p.allSatisfy { $0.isASCII && $0.isNumber } && Int(p)! <= 255 }
    }

    /// A `Sec-WebSocket-Key` that is base64 of 16 bytes: 22 symbols, the last with its low 4
    /// bits clear, and `==`.
    static func isKey(_ key: String) -> Bool {
        let b = Array(key.utf8)
        guard b.count == 24, b[22] == UInt8(ascii: "="), b[23] == UInt8(ascii: "=") else { return false }
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var last = 0
        for c in b[..<22] {
            guard let v = alphabet.firstIndex(of: c) else { return false }
            last = v
        }
        return last & 0x0F == 0
    }

    /// A comma-separated field holds `token` (case-insensitive), as `Connection: keep-alive, Upgrade`.
    static func list(_ field: String?, contains token: String) -> Bool {
        (field ?? "").split(separator: ",").contains { trimmed($0).lowercased() == token }
    }
}

/// `s` without spaces and tabs at either end.
func trimmed(_ s: Substring) -> String {
    String(s.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
}
