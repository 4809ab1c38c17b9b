import DialCore
import KioskVocabulary
import Testing
@testable import KioskConfiguration
@testable import KioskFeatures
import KioskTestSupport

/// The `mqtt:` section: defaults, every key, and located errors (file:line: key: problem).
@Suite struct MQTTConfigTests {
    private func parse(_ section: String) throws -> MQTTSettings? {
        try ConfigParser.parse("mqtt:\n" + section, file: "k.yaml").mqtt
    }

    private func error(_ section: String) -> String {
        do {
            _ = try ConfigParser.parse("mqtt:\n" + section, file: "k.yaml")
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func absentIsOffAndDefaultsFollowTLS() throws {
        let held1 = try ConfigParser.parse("items: [{id: a, label: A}]\n", file: "k.yaml").mqtt == nil
        #expect(held1)
        let parsedPlain = try parse("  host: 192.0.2.10\n")
        let plain = try #require(parsedPlain)
        #expect(plain.port == 1883 && plain.keepalive == 60 && plain.tls == nil && plain.discoveryPrefix == "homeassistant")
        let parsedTLS = try parse("  host: broker.lan\n  tls:\n    ca_file: /etc/ssl/ca.pem\n")
        let tls = try #require(parsedTLS)
        #expect(tls.port == 8883)
        #expect(tls.tls == MQTTSettings.TLS(caFile: "/etc/ssl/ca.pem", certFile: nil, keyFile: nil))
    }

    @Test func everyKey() throws {
        let parsed = try parse("""
              host: 10.0.0.5
              port: 1884
              tls: {ca_file: /c.pem, cert_file: /k.crt, key_file: /k.key}
              username: hall
              credential: mqtt-password
              client_id: hall-7
              base_topic: site/hall/7
              keepalive_seconds: 30
              discovery_prefix: none

            """)
        let s = try #require(parsed)
        #expect(s.port == 1884 && s.username == "hall" && s.password == .credential("mqtt-password"))
        #expect(s.clientID == "hall-7" && s.baseTopic == "site/hall/7" && s.keepalive == 30 && s.discoveryPrefix == nil)
        #expect(s.tls?.certFile == "/k.crt" && s.tls?.keyFile == "/k.key")
    }

    /// `support_url`: an http or https URL, anything else refused where it stands.
    @Test func supportURL() throws {
        #expect(try parse("  host: h\n  support_url: http://intranet/kiosk-help\n")?.supportURL == "http://intranet/kiosk-help")
        #expect(try parse("  host: h\n  support_url: HTTPS://[2001:db8::1]:8443/a%20b#top\n")?.supportURL == "HTTPS://[2001:db8::1]:8443/a%20b#top")
        #expect(try parse("  host: h\n")?.supportURL == nil)
        #expect(error("  host: h\n  support_url: ftp://files/help\n") == "k.yaml:3: mqtt.support_url: expected an http:// or https:// URL, got 'ftp://files/help'")
        #expect(error("  host: h\n  support_url: help.example.org\n") == "k.yaml:3: mqtt.support_url: expected an http:// or https:// URL, got 'help.example.org'")
        #expect(error("  host: h\n  support_url: https:///path\n") == "k.yaml:3: mqtt.support_url: has no host after https://, got 'https:///path'")
        #expect(error("  host: h\n  client_id: k\n  support_url: \"https://h/a b\"\n") == "k.yaml:4: mqtt.support_url: contains a space, which a URL holds only percent-encoded")
        #expect(error("  host: h\n  support_url: https://h/<x>\n") == "k.yaml:3: mqtt.support_url: contains '<', which a URL holds only percent-encoded")
        #expect(error("  host: h\n  support_url: [a]\n").hasPrefix("k.yaml:3: mqtt.support_url: expected a text value"))
    }

    @Test func locatedErrors() {
        #expect(error("  port: 1883\n") == "k.yaml:2: mqtt.host: the broker's host name or address is required (for example 192.0.2.10 or broker.lan)")
        #expect(error("  host: h\n  password: hunter2\n").hasPrefix("k.yaml:3: mqtt.password: the password never sits in the configuration file"))
        #expect(error("  host: h\n  port: 70000\n") == "k.yaml:3: mqtt.port: expected a whole number between 1 and 65535, got 70000")
        #expect(error("  host: h\n  password_file: /p\n") == "k.yaml:3: mqtt.password_file: a password needs a username (MQTT sends none without one)")
        #expect(error("  host: h\n  username: u\n  password_file: p\n") == "k.yaml:4: mqtt.password_file: expected an absolute path, got 'p'")
        #expect(error("  host: h\n  username: u\n  password_file: /p\n  credential: c\n") == "k.yaml:5: mqtt.credential: give password_file or credential, not both")
        #expect(error("  host: h\n  base_topic: a/#\n") == "k.yaml:3: mqtt.base_topic: must not contain the wildcards + or #")
        #expect(error("  host: h\n  base_topic: /a\n") == "k.yaml:3: mqtt.base_topic: must not have an empty level (a leading, trailing or doubled /)")
        #expect(error("  host: h\n  client_id: a b\n") == "k.yaml:3: mqtt.client_id: expected letters, digits, - and _ (at most 64), got 'a b'")
        #expect(error("  host: h\n  keepalive_seconds: 2\n") == "k.yaml:3: mqtt.keepalive_seconds: expected a whole number of seconds between 5 and 3600, got 2")
        #expect(error("  host: h\n  tls:\n    cert_file: /c\n").hasPrefix("k.yaml:4: mqtt.tls.ca_file: required with tls"))
        #expect(error("  host: h\n  tls: {ca_file: /a, cert_file: /c}\n") == "k.yaml:3: mqtt.tls.key_file: cert_file and key_file go together (a client certificate and its key)")
        #expect(error("  host: h\n  hots: x\n").hasPrefix("k.yaml:3: mqtt.hots: unknown key (did you mean 'host'?)"))
    }

    @Test func clientIDFromTheMachineID() {
        #expect(MQTTSettings.clientID(configured: nil, machineID: "0123456789abcdef0123456789abcdef") == "dialkiosk-0123456789ab")
        #expect(MQTTSettings.clientID(configured: "x", machineID: "0123") == "x")
        #expect(MQTTSettings.clientID(configured: nil, machineID: nil) == "dialkiosk-unknown")
    }

    @Test func commandTopicsParseLikeTheControlSocket() {
        #expect(MQTTCommand.parse(name: "select", payload: "drinks/coffee") == .success(.select(path: MenuPath(["drinks", "coffee"]))))
        #expect(MQTTCommand.parse(name: "back", payload: "PRESS") == .success(.back))
        #expect(MQTTCommand.parse(name: "screen", payload: "dim\n") == .success(.screen(.dim)))
        #expect(MQTTCommand.parse(name: "brightness", payload: "55") == .success(.brightness(55)))
        for (name, payload) in [("brightness", "101"), ("brightness", "x"), ("screen", "blue"), ("select", ""),
                                ("select", "a b"), ("launch", "x")] {
            guard case .failure(let why) = MQTTCommand.parse(name: name, payload: payload) else {
                Issue.record("set/\(name) \(payload) was accepted")
                continue
            }
            #expect(!why.description.isEmpty)
        }
    }
}
