import YAMLTree

/// The `remote:` section (absent: no remote view, no socket at all): where the RFB server
/// listens and what viewers may do. Closed by default: viewers only watch, and only loopback
/// or a Unix socket is accepted, because this version has neither TLS nor a password for
/// viewers (RFB's security type None is all it offers).
package struct RemoteSettings: Sendable, Equatable {
    package enum Listen: Sendable, Equatable {
        case tcp(host: String, port: Int)
        case unix(path: String)
    }

    package var listen: Listen
    /// RFB over WebSocket (for noVNC) on its own address; nil: none.
    package var websocket: Listen?
    /// Viewers may turn the dial (pointer = one finger, wheel, keys).
    package var input: Bool
    package var maxFPS: Double
    /// The on-glass "being viewed" badge while a viewer is connected.
    package var mark: Bool
    /// Screenshots over the control socket and MQTT.
    package var screenshots: Bool
    /// Host names the WebSocket address answers besides loopback (a tunnel's or proxy's name),
    /// lowercased, without a port.
    package var allowedHosts: [String] = []
    /// Origins (`scheme://host[:port]`) whose pages may open the WebSocket besides its own page.
    package var allowedOrigins: [String] = []
    /// A file holding the secret the WebSocket's path must carry (`/websockify/TOKEN`).
    package var tokenFile: String?
    /// The group a `unix:` socket is given (mode 0660); nil: the owner's only (0600).
    package var socketGroup: String?

    package init(listen: Listen, websocket: Listen? = nil, input: Bool = false, maxFPS: Double = 30,
                mark: Bool = true, screenshots: Bool = false) {
        self.listen = listen
        self.websocket = websocket
        self.input = input
        self.maxFPS = maxFPS
        self.mark = mark
        self.screenshots = screenshots
    }

    /// Host names and addresses that stay on this machine.
    package static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}

extension ConfigParser {
    package static let remoteKeys = ["listen", "websocket", "input", "credential", "password_file", "tls", "max_fps", "mark", "screenshots",
                                     "allowed_hosts", "allowed_origins", "token_file", "socket_group"]
    /// Entries of `allowed_hosts` or `allowed_origins` read at most.
    static let maximumAllowed = 16

    package static func parseRemote(_ section: ConfigSection) throws -> RemoteSettings {
        for key in ["credential", "password_file", "tls"] where section.keyLine(key) != nil {
            throw section.error(key, section.value(key),
                                "viewer passwords and TLS are not implemented in this version: the remote view offers RFB "
                                + "security type None only, so it listens on loopback or a Unix socket only (reach it "
                                + "through an SSH tunnel); remove \(key)")
        }
        guard let listen = try address(section, "listen") else {
            throw ConfigError(file: section.file, line: section.node.line, key: section.keyPath("listen"),
                              message: "required: host:port on loopback (127.0.0.1:5900) or unix:/run/dialkiosk/vnc.sock")
        }
        let websocket = try address(section, "websocket")
        var settings = RemoteSettings(listen: listen, websocket: websocket)
        settings.input = try section.bool("input") ?? false
        settings.mark = try section.bool("mark") ?? true
        settings.screenshots = try section.bool("screenshots") ?? false
        if let fps = try section.number("max_fps", where: { $0 >= 1 && $0 <= 240 }, "between 1 and 240") {
            settings.maxFPS = fps
        }
        settings.allowedHosts = try list(section, "allowed_hosts", "host names without a port (kiosk.example)") { entry in
            let ok = entry.utf8.count <= 253 && entry.unicodeScalars.allSatisfy {
                ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9") || $0 == "-" || $0 == "." || $0 == "[" || $0 == "]" || $0 == ":"
            } && (!entry.contains(":") || (entry.hasPrefix("[") && entry.hasSuffix("]")))
            return ok ? nil : "expected a host name without a port (letters, digits, - and .; an IPv6 address in brackets)"
        }
        settings.allowedOrigins = try list(section, "allowed_origins", "origins (https://kiosk.example)") { entry in
            guard entry.hasPrefix("http://") || entry.hasPrefix("https://") else { return "expected http:// or https:// and a host" }
            let rest = entry.split(separator: "/", omittingEmptySubsequences: false).dropFirst(2)
            guard rest.count == 1, let host = rest.first, !host.isEmpty else { return "expected scheme://host[:port] and no path" }
            return nil
        }
        if let file = try section.name("token_file", maximumBytes: 4096) {
            guard file.hasPrefix("/") else { throw section.error("token_file", section.value("token_file"), "expected an absolute path, got '\(file)'") }
            settings.tokenFile = file
        }
        if let group = try section.name("socket_group", maximumBytes: 32) {
            guard group.unicodeScalars.allSatisfy({ ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") || "_-.".unicodeScalars.contains($0) }),
                  group.first != "-" else {
                throw section.error("socket_group", section.value("socket_group"), "expected a group name (letters, digits, _ - .), got '\(group)'")
            }
            let unix: (RemoteSettings.Listen?) -> Bool = { if case .unix = $0 { return true } else { return false } }
            guard unix(settings.listen) || unix(settings.websocket) else {
                throw section.error("socket_group", section.value("socket_group"),
                                    "only a unix: address has a group; listen and websocket are both TCP here")
            }
            settings.socketGroup = group
        }
        return settings
    }

    /// A list of at most `maximumAllowed` strings, lowercased, each passing `problem` (nil: fine).
    private static func list(_ section: ConfigSection, _ key: String, _ what: String, problem: (String) -> String?) throws -> [String] {
        guard let node = section.value(key) else { return [] }
        guard case .sequence(let sequence) = node else {
            throw section.error(key, node, "expected a list of \(what), got \(ConfigSection.describe(node))")
        }
        guard sequence.count <= maximumAllowed else { throw section.error(key, node, "at most \(maximumAllowed) entries, got \(sequence.count)") }
        return try sequence.enumerated().map { i, element in
            func fail(_ message: String) -> ConfigError {
                ConfigError(file: section.file, line: element.line, key: "\(section.keyPath(key))[\(i)]", message: message)
            }
            guard case .scalar(let scalar) = element, !scalar.string.isEmpty else { throw fail("expected one of \(what), got \(ConfigSection.describe(element))") }
            let entry = scalar.string.lowercased()
            if let problem = problem(entry) { throw fail("\(problem), got '\(scalar.string.prefix(80))'") }
            return entry
        }
    }

    /// `host:port`, `[v6]:port` or `unix:/absolute/path`; anything but loopback is refused.
    private static func address(_ section: ConfigSection, _ key: String) throws -> RemoteSettings.Listen? {
        guard let text = try section.name(key, maximumBytes: 200) else { return nil }
        if text.hasPrefix("unix:") {
            let path = String(text.dropFirst(5))
            guard path.hasPrefix("/"), path.utf8.count < 108 else {
                throw section.error(key, section.value(key), "expected unix: and an absolute path shorter than 108 bytes, got '\(text)'")
            }
            return .unix(path: path)
        }
        var host: Substring, portText: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(after: close)...]
            guard portText.hasPrefix(":") else {
                throw section.error(key, section.value(key), "expected [address]:port, got '\(text)'")
            }
            portText = portText.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                throw section.error(key, section.value(key), "expected host:port (127.0.0.1:5900) or unix:PATH, got '\(text)'")
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard let port = Int(portText), (1...65_535).contains(port) else {
            throw section.error(key, section.value(key), "expected a port between 1 and 65535 in '\(text)'")
        }
        guard RemoteSettings.isLoopback(String(host)) else {
            throw section.error(key, section.value(key),
                                "\(host) is not loopback: without TLS and a password (not implemented in this version) the "
                                + "remote view listens on 127.0.0.1, ::1 or a Unix socket only; reach it through an SSH tunnel")
        }
        return .tcp(host: String(host), port: port)
    }
}
