import KioskConfiguration
import KioskReporting
import Testing
import KioskTestSupport

@Suite struct RemoteConfigTests {
    func error(_ yaml: String) -> ConfigError? {
        do { _ = try ConfigParser.parse(yaml, file: "k.yaml"); return nil } catch { return error as? ConfigError }
    }

    @Test func absentMeansNoRemoteView() throws {
        #expect(try ConfigParser.parse("theme: high-contrast\n", file: "k.yaml").remote == nil)
    }

    @Test func loopbackAndUnixAreAccepted() throws {
        let a = try ConfigParser.parse("remote:\n  listen: 127.0.0.1:5900\n  input: true\n  max_fps: 20\n", file: "k.yaml").remote
        #expect(a == RemoteSettings(listen: .tcp(host: "127.0.0.1", port: 5900), input: true, maxFPS: 20))
        let b = try ConfigParser.parse("remote:\n  listen: \"[::1]:5901\"\n", file: "k.yaml").remote
        #expect(b?.listen == .tcp(host: "::1", port: 5901))
        #expect(b?.input == false && b?.maxFPS == 30 && b?.mark == true && b?.screenshots == false)
        let c = try ConfigParser.parse("remote:\n  listen: unix:/run/dialkiosk/vnc.sock\n", file: "k.yaml").remote
        #expect(c?.listen == .unix(path: "/run/dialkiosk/vnc.sock"))
    }

    @Test func anAddressBeyondLoopbackIsRefusedAtItsLine() {
        let e = error("theme: high-contrast\nremote:\n  input: true\n  listen: 0.0.0.0:5900\n")
        #expect(e?.line == 4)
        #expect(e?.key == "remote.listen")
        #expect(e?.exitStatus == .config)
        #expect(e?.message.contains("not loopback") == true)
        #expect(error("remote:\n  listen: 192.168.1.5:5900\n")?.line == 2)
    }

    @Test func passwordsAndTLSAreRefusedAsNotImplemented() {
        let e = error("remote:\n  listen: 127.0.0.1:5900\n  password_file: /etc/vnc-pass\n")
        #expect(e?.line == 3 && e?.key == "remote.password_file")
        #expect(e?.message.contains("not implemented") == true)
        #expect(error("remote:\n  listen: 127.0.0.1:5900\n  tls: {cert_file: /a, key_file: /b}\n")?.key == "remote.tls")
    }

    @Test func badValuesAreLocated() {
        #expect(error("remote:\n  input: true\n")?.key == "remote.listen")
        #expect(error("remote:\n  listen: 127.0.0.1\n")?.line == 2)
        #expect(error("remote:\n  listen: 127.0.0.1:70000\n")?.line == 2)
        #expect(error("remote:\n  listen: 127.0.0.1:5900\n  max_fps: 0\n")?.key == "remote.max_fps")
        #expect(error("remote:\n  listen: 127.0.0.1:5900\n  colour: red\n") != nil)
    }

    @Test func theWebSocketsAndSocketsKeysAreReadAndBadOnesLocated() throws {
        let a = try ConfigParser.parse("remote:\n  listen: unix:/run/d/vnc.sock\n  websocket: 127.0.0.1:5800\n  allowed_hosts: [Kiosk.Example]\n"
                                       + "  allowed_origins: [\"https://support.example\"]\n  token_file: /etc/t\n  socket_group: support\n", file: "k.yaml").remote
        #expect(a?.allowedHosts == ["kiosk.example"] && a?.allowedOrigins == ["https://support.example"])
        #expect(a?.tokenFile == "/etc/t" && a?.socketGroup == "support")
        let base = "remote:\n  listen: 127.0.0.1:5900\n"
        #expect(error(base + "  allowed_hosts: kiosk\n")?.key == "remote.allowed_hosts")
        let e = error(base + "  allowed_hosts:\n    - ok.example\n    - evil.example:80\n")
        #expect(e?.key == "remote.allowed_hosts[1]" && e?.line == 5 && e?.exitStatus == .config)
        #expect(error(base + "  allowed_origins: [support.example]\n")?.key == "remote.allowed_origins[0]")
        #expect(error(base + "  allowed_origins: [\"https://a.example/path\"]\n")?.key == "remote.allowed_origins[0]")
        #expect(error(base + "  token_file: relative\n")?.key == "remote.token_file")
        let g = error(base + "  socket_group: support\n")
        #expect(g?.key == "remote.socket_group" && g?.message.contains("unix:") == true)
        #expect(error("remote:\n  listen: unix:/run/d/v.sock\n  socket_group: \"a b\"\n")?.line == 3)
    }
}
