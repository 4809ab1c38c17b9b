import Testing
@testable import RemoteView

@Suite struct WebFrontTests {
    @Test func acceptKeyIsRFC6455s() {
        #expect(WebSocketKey.accept("dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(WebSocketKey.base64(Array("abcd".utf8)) == "YWJjZA==")
    }

    @Test func upgradeAtWebsockifyEchoesBinary() {
        var front = WebFront(root: nil)
        var rest: [UInt8] = []
        let head = "GET /websockify HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
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
        guard case .answer(let r) = a.receive(Array("GET /../etc/passwd HTTP/1.1\r\n\r\n".utf8)[...], rest: &rest) else { Issue.record("no answer"); return }
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
        #expect(frames.replies == [0x8A, 1, 9])  // the ping's pong
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
}
