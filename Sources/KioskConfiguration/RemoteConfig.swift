/// The `remote:` section (absent: no remote view, no socket at all): where the RFB server
/// listens and what viewers may do. Closed by default: viewers only watch, and only loopback
/// or a Unix socket is accepted, because this version has neither TLS nor a password for
/// viewers (RFB's security type None is all it offers).
public struct RemoteSettings: Sendable, Equatable {
    public enum Listen: Sendable, Equatable {
        case tcp(host: String, port: Int)
        case unix(path: String)
    }

    public var listen: Listen
    /// RFB over WebSocket (for noVNC) on its own address; nil: none.
    public var websocket: Listen?
    /// Viewers may turn the dial (pointer = one finger, wheel, keys).
    public var input: Bool
    public var maxFPS: Double
    /// The on-glass "being viewed" badge while a viewer is connected.
    public var mark: Bool
    /// Screenshots over the control socket and MQTT.
    public var screenshots: Bool

    public init(listen: Listen, websocket: Listen? = nil, input: Bool = false, maxFPS: Double = 30,
                mark: Bool = true, screenshots: Bool = false) {
        self.listen = listen
        self.websocket = websocket
        self.input = input
        self.maxFPS = maxFPS
        self.mark = mark
        self.screenshots = screenshots
    }

    /// Host names and addresses that stay on this machine.
    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}

extension ConfigParser {
    package static let remoteKeys = ["listen", "websocket", "input", "credential", "password_file", "tls", "max_fps", "mark", "screenshots"]

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
        return settings
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
