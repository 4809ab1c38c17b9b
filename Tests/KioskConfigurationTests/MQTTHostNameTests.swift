import Testing
@testable import KioskConfiguration

/// `mqtt.host` goes to libmosquitto and getaddrinfo: names and addresses by their characters.
@Suite struct MQTTHostNameTests {
    private func error(_ host: String) -> String {
        do {
            _ = try ConfigParser.parse("mqtt:\n  host: \"\(host)\"\n", file: "k.yaml")
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func hostNamesAndAddressesOnly() {
        for host in ["broker.lan", "192.0.2.10", "::1", "fe80::1", "my_broker-2.example"] {
            #expect(error(host) == "no error", "\(host)")
        }
        for host in ["broker lan", "a/b", "b\\\\174", "$(x)", "a;b", "a|b", "a%eth0"] {
            #expect(error(host).hasPrefix("k.yaml:2: mqtt.host: expected a host name or address"), "\(host): \(error(host))")
        }
    }
}
