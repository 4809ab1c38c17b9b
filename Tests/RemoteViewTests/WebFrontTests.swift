import Testing
@testable import RemoteView

@Suite struct WebFrontTests {
    @Test func acceptKeyIsRFC6455s() {
        #expect(WebSocketKey.accept("dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func upgradeAtWebsockifyEchoesBinary() {
        var front = WebFront(root: nil)
        var rest: [UInt8] = []
        let head = "GET /websockify HTTP/1.1\r\nHost: 127.0.0.1:6080\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: binary\r\n\r\nRFB"
        let bytes = Array(head.utf8)
        #expect(front.receive(bytes[0..<20], rest: &rest) == .waiting)
        guard case .upgrade(let reply) = front.receive(bytes[20...], rest: &rest) else { Issue.record("no upgrade"); return }
        let text = String(decoding: reply, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 101 "))
        #expect(text.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"))
        #expect(text.contains("Sec-WebSocket-Protocol: binary\r\n"))
        #expect(rest == Array("RFB".utf8))
    }

    @Test func filesOutsideTheRootAndOversizedHeadsAreRefused() {
        var rest: [UInt8] = []
        var a = WebFront(root: "/usr/share")
        guard case .answer(let r) = a.receive(Array("GET /../etc/passwd HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)[...], rest: &rest) else { Issue.record("no answer"); return }
        #expect(String(decoding: r, as: UTF8.self).hasPrefix("HTTP/1.1 404"))
        var b = WebFront(root: nil)
        let long = [UInt8](repeating: 65, count: WebFront.maximumRequest + 1)
        guard case .answer(let r2) = b.receive(long[...], rest: &rest) else { Issue.record("no answer"); return }
        #expect(String(decoding: r2, as: UTF8.self).hasPrefix("HTTP/1.1 431"))
    }

    func masked(_ payload: [UInt8], opcode: UInt8 = 2) -> [UInt8] {
        let mask: [UInt8] = [1, 2, 3, 4]
        var out: [UInt8] = [0x80 | opcode]
        if payload.count < 126 { out.append(0x80 | UInt8(payload.count)) } else { out += [UInt8(0x80 | 126), UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] }
        return out + mask + payload.enumerated().map { $0.element ^ mask[$0.offset & 3] }
    }

    @Test func framesInAndOut() throws {
        var frames = WebSocketFrames()
        let one = masked([5, 1, 0, 10, 0, 20]), two = masked([UInt8](repeating: 7, count: 300))
        let all = one + two + masked([9], opcode: 9)
        #expect(try frames.receive(all[0..<3]).isEmpty)
        #expect(try frames.receive(all[3...]) == [5, 1, 0, 10, 0, 20] + [UInt8](repeating: 7, count: 300))
        #expect(frames.takePong() == [0x8A, 1, 9])  // the ping's pong
        #expect(WebSocketFrames.frame([1, 2]) == [0x82, 2, 1, 2])
        #expect(Array(WebSocketFrames.frame([UInt8](repeating: 0, count: 70_000)).prefix(10)) == [0x82, 127, 0, 0, 0, 0, 0, 1, 0x11, 0x70])
        _ = try frames.receive(masked([], opcode: 8)[...])
        #expect(frames.closed)
    }

    @Test func anUnmaskedOrHugeFrameIsRefused() {
        var a = WebSocketFrames()
        #expect(throws: WebSocketFrames.Failure.unmasked) { try a.receive([0x82, 1, 0]) }
        var b = WebSocketFrames()
        #expect(throws: WebSocketFrames.Failure.tooLong) { try b.receive([0x82, 0x80 | 127, 0, 0, 0, 0, 0, 0x10, 0, 0]) }
    }

    /// A request head with `fields` (each "Name: value") for `target`.
    func outcome(_ gate: WebGate, method: String = "GET", target: String = "/websockify", _ fields: [String]) -> WebFront.Outcome {
        var front = WebFront(root: nil, gate: gate)
        var rest: [UInt8] = []
        let head = "\(method) \(target) HTTP/1.1\r\n" + fields.map { $0 + "\r\n" }.joined() + "\r\n"
        return front.receive(Array(head.utf8)[...], rest: &rest)
    }

    func reply(_ o: WebFront.Outcome) -> String {
        switch o {
        case .waiting: return "waiting"
        case .upgrade(let r), .answer(let r), .refuse(let r, _): return String(decoding: r, as: UTF8.self)
        }
    }

    static let upgradeFields = ["Host: 127.0.0.1:6080", "Upgrade: websocket", "Connection: keep-alive, Upgrade",
                                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13"]

    func with(_ name: String, _ value: String?) -> [String] {
        Self.upgradeFields.filter { !$0.hasPrefix(name + ":") } + (value.map { ["\(name): \($0)"] } ?? [])
    }

    @Test func theHandshakesMustsAreChecked() {
        let gate = WebGate(port: 6080)
        #expect(reply(outcome(gate, Self.upgradeFields)).hasPrefix("HTTP/1.1 101 "))
        let post = reply(outcome(gate, method: "POST", Self.upgradeFields))
        #expect(post.hasPrefix("HTTP/1.1 405 ") && post.contains("\r\nAllow: GET\r\n"))
        let v8 = reply(outcome(gate, with("Sec-WebSocket-Version", "8")))
        #expect(v8.hasPrefix("HTTP/1.1 426 ") && v8.contains("\r\nSec-WebSocket-Version: 13\r\n"))
        #expect(reply(outcome(gate, with("Sec-WebSocket-Version", nil))).hasPrefix("HTTP/1.1 426 "))
        #expect(reply(outcome(gate, with("Connection", "keep-alive"))).hasPrefix("HTTP/1.1 400 "))
        #expect(reply(outcome(gate, with("Connection", "UPGRADE"))).hasPrefix("HTTP/1.1 101 "))
        #expect(reply(outcome(gate, with("Sec-WebSocket-Key", "c2hvcnQ="))).hasPrefix("HTTP/1.1 400 "))
        #expect(reply(outcome(gate, with("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZR=="))).hasPrefix("HTTP/1.1 400 "))
        #expect(reply(outcome(gate, Self.upgradeFields + ["Host: 127.0.0.1:6080"])).hasPrefix("HTTP/1.1 400 "))
    }

    @Test func hostMustBeThisMachineOnItsPort() {
        let gate = WebGate(port: 6080, allowedHosts: ["kiosk.example"])
        for ok in ["localhost:6080", "127.0.0.1:6080", "127.9.8.7:6080", "[::1]:6080", "LOCALHOST:6080", "kiosk.example:6080"] {
            #expect(reply(outcome(gate, with("Host", ok))).hasPrefix("HTTP/1.1 101 "), "\(ok)")
        }
        for bad in ["evil.example:6080", "127.0.0.1:6081", "127.0.0.1", "localhost.evil.example:6080", "128.0.0.1:6080",
                    "127.0.0.256:6080", "[::2]:6080", "127.0.0.1:6080x", ""] {
            guard case .refuse(let r, let why) = outcome(gate, with("Host", bad)) else { Issue.record("\(bad) passed"); continue }
            #expect(String(decoding: r, as: UTF8.self).hasPrefix("HTTP/1.1 403 ") && why.contains("Host"))
        }
        guard case .refuse = outcome(gate, with("Host", nil)) else { Issue.record("no Host passed"); return }
        // A Unix socket behind a tunnel: any port of a loopback name.
        #expect(reply(outcome(WebGate(port: nil), with("Host", "localhost:5999"))).hasPrefix("HTTP/1.1 101 "))
        // Files are behind the same Host check (a rebound name gets no page either).
        guard case .refuse = outcome(gate, target: "/vnc.html", ["Host: evil.example:6080"]) else { Issue.record("page served"); return }
    }

    @Test func originMustBeThePagesOrAllowed() {
        let gate = WebGate(port: 6080, allowedOrigins: ["https://support.example"])
        #expect(reply(outcome(gate, Self.upgradeFields + ["Origin: http://127.0.0.1:6080"])).hasPrefix("HTTP/1.1 101 "))
        #expect(reply(outcome(gate, Self.upgradeFields + ["Origin: https://support.example"])).hasPrefix("HTTP/1.1 101 "))
        for bad in ["http://evil.example", "http://127.0.0.1:8000", "http://localhost:6080", "null", "https://127.0.0.1:6080"] {
            guard case .refuse(_, let why) = outcome(gate, Self.upgradeFields + ["Origin: \(bad)"]) else { Issue.record("\(bad) passed"); continue }
            #expect(why.contains("Origin"))
        }
    }

    @Test func theTokenRidesInThePath() {
        let gate = WebGate(port: 6080, token: Array("0123456789abcdef0123456789abcdef".utf8))
        #expect(reply(outcome(gate, target: "/websockify/0123456789abcdef0123456789abcdef", Self.upgradeFields)).hasPrefix("HTTP/1.1 101 "))
        for bad in ["/websockify", "/", "/websockify/0123456789abcdef0123456789abcdee", "/websockify/0123456789abcdef0123456789abcdef0",
                    "/websockify/", "/websockify/0123456789abcdef"] {
            guard case .refuse(_, let why) = outcome(gate, target: bad, Self.upgradeFields) else { Issue.record("\(bad) passed"); continue }
            #expect(why.contains("token"))
        }
    }

    @Test func framingIsStrictWithTheRightStatus() {
        func failure(_ bytes: [UInt8]) -> WebSocketFrames.Failure? {
            var f = WebSocketFrames()
            do { _ = try f.receive(bytes[...]); return nil } catch { return error as? WebSocketFrames.Failure }
        }
        var rsv = masked([1]); rsv[0] |= 0x40
        #expect(failure(rsv) == .reserved && WebSocketFrames.Failure.reserved.status == 1002)
        #expect(failure(masked([UInt8](repeating: 0, count: 126), opcode: 9)) == .control)
        var fragmentedPing = masked([1], opcode: 9); fragmentedPing[0] &= 0x7F
        #expect(failure(fragmentedPing) == .control)
        #expect(failure([0x82, 1, 0]) == .unmasked && WebSocketFrames.Failure.unmasked.status == 1002)
        #expect(failure(masked([1], opcode: 3)) == .opcode(3))
        #expect(failure(masked([1], opcode: 0)) == .continuation)
        #expect(WebSocketFrames.Failure.tooLong.status == 1009)
        // Fragments of a data message are joined.
        var first = masked([1, 2]); first[0] &= 0x7F
        var f = WebSocketFrames()
        #expect((try? f.receive((first + masked([3], opcode: 0))[...])) == [1, 2, 3])
        #expect(WebSocketFrames.close(1002) == [0x88, 2, 0x03, 0xEA])
    }

    @Test func aPeerOwesAtMostOnePong() throws {
        var f = WebSocketFrames()
        _ = try f.receive(masked([1], opcode: 9)[...])
        #expect(f.owesPong)
        // The pong taken by the writer but not sent: still owed.
        #expect(f.takePong() != nil)
        #expect(throws: WebSocketFrames.Failure.pingFlood) { try f.receive(masked([2], opcode: 9)[...]) }
        var g = WebSocketFrames()
        for i in 0..<100 {
            _ = try g.receive(masked([UInt8(i)], opcode: 9)[...])
            #expect(g.takePong() == [0x8A, 1, UInt8(i)])
            g.pongSent()
        }
    }

    @Test func tokensAreRandomAndFilesChecked() throws {
        let a = try ViewToken.random(), b = try ViewToken.random()
        #expect(a.utf8.count == 32 && a != b)
        #expect(ViewToken.problem(Array("short".utf8)) != nil)
        #expect(ViewToken.problem(Array("0123456789abcdef/".utf8)) != nil)
        #expect(ViewToken.problem(Array("0123456789abcdef-_.~".utf8)) == nil)
    }
}
