/// The `mqtt:` section (absent: no MQTT at all): where the broker is, how to log in, which
/// topics. The password is never in the file: `password_file` names a file holding it,
/// `credential` a systemd credential (`LoadCredential=NAME:PATH` in the unit; read from
/// `$CREDENTIALS_DIRECTORY/NAME` at start).
package struct MQTTSettings: Sendable, Equatable {
    package struct TLS: Sendable, Equatable {
        package var caFile: String
        package var certFile: String?
        package var keyFile: String?
    }

    /// Where the password comes from.
    package enum Password: Sendable, Equatable {
        case file(String)
        case credential(String)
    }

    /// The defaults of the `mqtt:` keys, kept only here (the parser and the initialiser use them).
    package enum Defaults {
        /// MQTT's registered ports (IANA): plain and over TLS.
        package static let port = 1883
        package static let tlsPort = 8883
        package static let keepalive = 60
        /// Home Assistant's own discovery prefix.
        package static let discoveryPrefix = "homeassistant"
        /// `stale_after_seconds`: 10 minutes.
        package static let staleAfter = 600.0
    }

    package var host: String
    /// `Defaults.port`, or `Defaults.tlsPort` with `tls`, unless given.
    package var port: Int
    package var tls: TLS?
    package var username: String?
    package var password: Password?
    /// nil: `dialkiosk-` and the first 12 hex digits of /etc/machine-id.
    package var clientID: String?
    /// nil: `dialkiosk/<client_id>`.
    package var baseTopic: String?
    package var keepalive: Int
    /// Home Assistant discovery under this prefix (`homeassistant`); nil: none.
    package var discoveryPrefix: String?
    /// While the broker is away, items bound to its topics say how old their state is once it
    /// is this many seconds old (`stale_after_seconds`); nil: never.
    package var staleAfter: Double? = Defaults.staleAfter
    /// Where Home Assistant points people for help with the kiosk (`support_url`, an http or
    /// https URL, sent in every discovery config's `origin`); nil: none is sent.
    package var supportURL: String?

    package init(host: String, port: Int? = nil, tls: TLS? = nil, username: String? = nil, password: Password? = nil,
                clientID: String? = nil, baseTopic: String? = nil, keepalive: Int = Defaults.keepalive,
                discoveryPrefix: String? = Defaults.discoveryPrefix) {
        self.host = host
        self.port = port ?? (tls == nil ? Defaults.port : Defaults.tlsPort)
        self.tls = tls
        self.username = username
        self.password = password
        self.clientID = clientID
        self.baseTopic = baseTopic
        self.keepalive = keepalive
        self.discoveryPrefix = discoveryPrefix
    }

    /// The client id `run` uses: the configured one, or one derived from the machine id
    /// (stable across restarts, distinct across a fleet cloned from one image only if each
    /// machine got its own machine-id, as systemd-firstboot gives them).
    package static func clientID(configured: String?, machineID: String?) -> String {
        if let configured { return configured }
        let hex = (machineID ?? "").filter { $0.isHexDigit }.lowercased()
        return "dialkiosk-" + (hex.isEmpty ? "unknown" : String(hex.prefix(12)))
    }

    /// A topic level or a topic as MQTT allows us to publish it: no wildcards, no NUL, no
    /// empty level, not starting with `$` (broker-reserved).
    package static func topicProblem(_ topic: String) -> String? {
        if topic.isEmpty { return "must not be empty" }
        if topic.contains("+") || topic.contains("#") { return "must not contain the wildcards + or #" }
        if topic.hasPrefix("$") { return "must not start with $ (topics the broker reserves)" }
        if topic.hasPrefix("/") || topic.hasSuffix("/") || topic.contains("//") { return "must not have an empty level (a leading, trailing or doubled /)" }
        if topic.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            return "must not contain control characters (C0, DEL or C1)"
        }
        // MQTT forbids noncharacters in topics (brokers drop the connection or the publish).
        if topic.unicodeScalars.contains(where: { (0xFDD0...0xFDEF).contains($0.value) || $0.value & 0xFFFE == 0xFFFE }) {
            return "must not contain Unicode noncharacters"
        }
        if topic.utf8.count > 1024 { return "longer than 1024 bytes" }
        return nil
    }

    /// What is wrong with `url` as `support_url`, nil when it is an absolute http or https URL
    /// (RFC 3986): the scheme, a non-empty host, and only the characters a URL may hold
    /// unencoded (no spaces: Home Assistant shows it as a link).
    package static func supportURLProblem(_ url: String) -> String? {
        let lower = url.lowercased()
        guard let scheme = ["https://", "http://"].first(where: { lower.hasPrefix($0) }) else {
            return "expected an http:// or https:// URL, got '\(url.prefix(64))'"
        }
        let rest = url.dropFirst(scheme.count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let host = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        if host.isEmpty || host.hasPrefix(":") { return "has no host after \(scheme), got '\(url.prefix(64))'" }
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%".unicodeScalars)
        if let bad = url.unicodeScalars.first(where: { !allowed.contains($0) }) {
            let shown = bad == " " ? "a space" : "'\(bad)'"
            return "contains \(shown), which a URL holds only percent-encoded"
        }
        return nil
    }
}

import LinuxSystem

extension MQTTSettings {
    /// The files this section names that cannot be read now (by this user), in words.
    package var fileProblems: [String] {
        var files: [(String, String)] = []
        if case .file(let path) = password { files.append(("mqtt.password_file", path)) }
        if let tls {
            files.append(("mqtt.tls.ca_file", tls.caFile))
            if let cert = tls.certFile { files.append(("mqtt.tls.cert_file", cert)) }
            if let key = tls.keyFile { files.append(("mqtt.tls.key_file", key)) }
        }
        return files.compactMap { key, path in
            if let failure = RegularFile.check(path) { return "\(key): \(path) \(failure.missing ? "does not exist" : failure.reason)" }
            if let failure = FilePaths.readProblem(path) { return "\(key): \(path) is not readable by this user (\(failure))" }
            if key == "mqtt.tls.ca_file", !Self.holdsPEMCertificate(path) {
                return "\(key): \(path) holds no PEM certificate (-----BEGIN CERTIFICATE-----); TLS would fail at every connect"
            }
            return nil
        } + (Self.hostProblem(host).map { [$0] } ?? [])
    }

    /// A `host` that is a name `hostsFile` does not list: it needs DNS at every connect, which
    /// the shipped unit denies. Reads the file only (no lookup: a validator must not ask the
    /// network).
    package static func hostProblem(_ host: String, hostsFile: String = "/etc/hosts") -> String? {
        guard !NumericAddress.isNumeric(host) else { return nil }
        var listed = false
        if let file = try? RegularFile.open(hostsFile) {
            var bytes = [UInt8](repeating: 0, count: 256 * 1024)
            if let n = try? bytes.withUnsafeMutableBytes({ file.read(into: $0) }).get() {
                for line in String(decoding: bytes[0..<n], as: UTF8.self).split(separator: "\n") {
                    let fields = line.prefix { $0 != "#" }.split(whereSeparator: { $0 == " " || $0 == "\t" })
                    if fields.dropFirst().contains(where: { $0.lowercased() == host.lowercased() }) { listed = true }
                }
            }
        }
        guard !listed else { return nil }
        return "mqtt.host: '\(host)' is a name \(hostsFile) does not list: it is looked up in DNS at every connect "
            + "(off the frame loop); the unit's MQTT drop-in must allow the DNS servers' addresses, or give an address"
    }

    /// Whether the first 64 KiB of `path` hold a PEM certificate's header (read only).
    static func holdsPEMCertificate(_ path: String) -> Bool {
        guard let file = try? RegularFile.open(path) else { return false }
        var bytes = [UInt8](repeating: 0, count: 64 * 1024)
        guard let n = try? bytes.withUnsafeMutableBytes({ file.read(into: $0) }).get() else { return false }
        return String(decoding: bytes[0..<n], as: UTF8.self).contains("-----BEGIN CERTIFICATE-----")
    }
}

extension ConfigParser {
    package static let mqttKeys = ["host", "port", "tls", "username", "password", "password_file", "credential", "client_id",
                           "base_topic", "keepalive_seconds", "discovery_prefix", "stale_after_seconds", "support_url"]
    package static let mqttTLSKeys = ["ca_file", "cert_file", "key_file"]

    package static func parseMQTT(_ section: ConfigSection) throws -> MQTTSettings {
        if section.value("password") != nil || section.keyLine("password") != nil {
            throw section.error("password", section.value("password"),
                                "the password never sits in the configuration file; name a file with password_file, "
                                + "or a systemd credential (LoadCredential=) with credential")
        }
        guard let host = try section.name("host", maximumBytes: 253) else {
            throw ConfigError(file: section.file, line: section.node.line, key: section.keyPath("host"),
                              message: "the broker's host name or address is required (for example 192.0.2.10 or broker.lan)")
        }
        // Letters, digits, '.', '-', '_' (names, IPv4) and ':' (IPv6): what getaddrinfo is handed.
        guard host.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x3A) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A)
                                     || $0 == 0x2E || $0 == 0x2D || $0 == 0x5F }) else {
            throw section.error("host", section.value("host"),
                                "expected a host name or address (letters, digits, '.', '-', '_', ':'), got '\(host.prefix(64))'")
        }
        var tls: MQTTSettings.TLS?
        if let t = try section.section("tls", known: mqttTLSKeys) {
            guard let ca = try absolutePath(t, "ca_file") else {
                throw ConfigError(file: t.file, line: t.node.line, key: t.keyPath("ca_file"),
                                  message: "required with tls: the CA certificate that signed the broker's certificate (PEM)")
            }
            let cert = try absolutePath(t, "cert_file")
            let key = try absolutePath(t, "key_file")
            if (cert == nil) != (key == nil) {
                let missing = cert == nil ? "cert_file" : "key_file"
                throw ConfigError(file: t.file, line: t.node.line, key: t.keyPath(missing),
                                  message: "cert_file and key_file go together (a client certificate and its key)")
            }
            tls = MQTTSettings.TLS(caFile: ca, certFile: cert, keyFile: key)
        }
        var port: Int?
        if let p = try section.number("port", where: { $0 >= 1 && $0 <= 65_535 && $0.rounded() == $0 },
                                      "a whole number between 1 and 65535") {
            port = Int(p)
        }
        let username = try section.name("username", maximumBytes: 256)
        var password: MQTTSettings.Password?
        if let file = try absolutePath(section, "password_file") { password = .file(file) }
        if let name = try section.name("credential", maximumBytes: 255) {
            guard password == nil else {
                throw section.error("credential", section.value("credential"), "give password_file or credential, not both")
            }
            guard !name.contains("/"), name != ".", name != ".." else {
                throw section.error("credential", section.value("credential"),
                                    "expected a credential name as LoadCredential= names it (no /), got '\(name)'")
            }
            password = .credential(name)
        }
        if password != nil && username == nil {
            let key = section.keyLine("credential") != nil ? "credential" : "password_file"
            throw section.error(key, section.value(key), "a password needs a username (MQTT sends none without one)")
        }
        var clientID: String?
        if let id = try section.name("client_id", maximumBytes: 64) {
            guard id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
                throw section.error("client_id", section.value("client_id"),
                                    "expected letters, digits, - and _ (at most 64), got '\(id)'")
            }
            clientID = id
        }
        var baseTopic: String?
        if let topic = try section.name("base_topic", maximumBytes: 1024) {
            if let problem = MQTTSettings.topicProblem(topic) { throw section.error("base_topic", section.value("base_topic"), problem) }
            baseTopic = topic
        }
        var keepalive = MQTTSettings.Defaults.keepalive
        if let k = try section.number("keepalive_seconds", where: { $0 >= 5 && $0 <= 3600 && $0.rounded() == $0 },
                                      "a whole number of seconds between 5 and 3600") {
            keepalive = Int(k)
        }
        var discovery: String? = MQTTSettings.Defaults.discoveryPrefix
        if let prefix = try section.string("discovery_prefix") {
            if prefix.isEmpty || prefix == "none" {
                discovery = nil
            } else if let problem = MQTTSettings.topicProblem(prefix) {
                throw section.error("discovery_prefix", section.value("discovery_prefix"), problem)
            } else {
                discovery = prefix
            }
        }
        var settings = MQTTSettings(host: host, port: port, tls: tls, username: username, password: password, clientID: clientID,
                                    baseTopic: baseTopic, keepalive: keepalive, discoveryPrefix: discovery)
        if let s = try section.number("stale_after_seconds", where: { $0 == 0 || ($0 >= 1 && $0 <= 604_800) },
                                      "of seconds: 0 (never), or between 1 and 604800") {
            settings.staleAfter = s > 0 ? s : nil
        }
        if let url = try section.name("support_url", maximumBytes: 2048) {
            if let problem = MQTTSettings.supportURLProblem(url) { throw section.error("support_url", section.value("support_url"), problem) }
            settings.supportURL = url
        }
        return settings
    }

    private static func absolutePath(_ section: ConfigSection, _ key: String) throws -> String? {
        guard let path = try section.name(key) else { return nil }
        guard path.hasPrefix("/") else {
            throw section.error(key, section.value(key), "expected an absolute path, got '\(path)'")
        }
        return path
    }
}
