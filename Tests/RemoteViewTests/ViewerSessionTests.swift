import DialRender
import KioskSeams
import Testing
@testable import RemoteView

/// A session past its handshake (3.8, security None), its greeting bytes consumed.
func readySession(width: Int = 64, height: Int = 48) -> ViewerSession {
    let s = ViewerSession(width: width, height: height)
    _ = s.receive(ArraySlice(Array("RFB 003.008\n".utf8)))
    _ = s.receive([1])
    _ = s.receive([1])
    s.consumed(s.pendingOutput)
    return s
}

func updateRequest(incremental: Bool, x: Int = 0, y: Int = 0, w: Int, h: Int) -> [UInt8] {
    [3, incremental ? 1 : 0, UInt8(x >> 8), UInt8(x & 0xFF), UInt8(y >> 8), UInt8(y & 0xFF),
     UInt8(w >> 8), UInt8(w & 0xFF), UInt8(h >> 8), UInt8(h & 0xFF)]
}

func bytes(_ s: ViewerSession) -> [UInt8] { s.withPendingOutput { Array($0) } }

@Suite struct ViewerSessionTests {
    @Test func handshake38OffersNoneAndSendsServerInit() {
        let s = ViewerSession(width: 800, height: 480)
        #expect(bytes(s) == Array("RFB 003.008\n".utf8))
        s.consumed(12)
        #expect(s.receive(ArraySlice(Array("RFB 003.008\n".utf8))).isEmpty)
        #expect(bytes(s) == [1, 1])
        s.consumed(2)
        _ = s.receive([1])
        #expect(bytes(s) == [0, 0, 0, 0])  // SecurityResult OK
        s.consumed(4)
        #expect(s.receive([0]) == [.ready])
        let out = bytes(s)
        #expect(Array(out[0..<4]) == [3, 32, 1, 224])
        #expect(Array(out[4..<20]) == PixelFormat.native.bytes)
        #expect(String(decoding: out[24...], as: UTF8.self) == "dialkiosk")
        #expect(s.isReady)
    }

    @Test func version33GetsSecurityTypeFromTheServer() {
        let s = ViewerSession(width: 8, height: 8)
        s.consumed(12)
        _ = s.receive(ArraySlice(Array("RFB 003.003\n".utf8)))
        #expect(bytes(s) == [0, 0, 0, 1])
        s.consumed(4)
        #expect(s.receive([1]) == [.ready])
    }

    @Test func anotherSecurityTypeIsRefusedWithAReason() {
        let s = ViewerSession(width: 8, height: 8)
        _ = s.receive(ArraySlice(Array("RFB 003.008\n".utf8)))
        s.consumed(s.pendingOutput)
        _ = s.receive([2])
        #expect(s.isClosed)
        #expect(Array(bytes(s).prefix(4)) == [0, 0, 0, 1])
    }

    @Test func garbageIsNotAVersion() {
        let s = ViewerSession(width: 8, height: 8)
        _ = s.receive(ArraySlice(Array("GET / HTTP/1.1\r\n".utf8)))
        #expect(s.isClosed)
    }

    @Test func idleSendsNothingUntilSomethingChanges() {
        let s = readySession()
        s.damaged(nil)
        _ = s.receive(ArraySlice(updateRequest(incremental: false, w: 64, h: 48)))
        s.updateIfDue(PixelBuffer(width: 64, height: 48), now: 1, minimumInterval: 0)
        #expect(s.pendingOutput > 0)
        s.consumed(s.pendingOutput)
        // An incremental request while nothing changes waits: no update, not even an empty one.
        _ = s.receive(ArraySlice(updateRequest(incremental: true, w: 64, h: 48)))
        for t in stride(from: 2.0, to: 100, by: 7) {
            s.updateIfDue(PixelBuffer(width: 64, height: 48), now: t, minimumInterval: 0)
            #expect(s.pendingOutput == 0)
            #expect(s.nextUpdate(minimumInterval: 0) == nil)
        }
        s.damaged([PixelRect(x0: 1, y0: 1, x1: 3, y1: 3)])
        s.updateIfDue(PixelBuffer(width: 64, height: 48), now: 101, minimumInterval: 0)
        #expect(s.updates == 2)
    }

    @Test func updatesWaitForARequestAndTheFrameRateCap() {
        let s = readySession()
        let frame = PixelBuffer(width: 64, height: 48)
        s.damaged([PixelRect(x0: 0, y0: 0, x1: 4, y1: 4)])
        s.updateIfDue(frame, now: 1, minimumInterval: 0.1)
        #expect(s.updates == 0)  // nothing asked for
        _ = s.receive(ArraySlice(updateRequest(incremental: true, w: 64, h: 48)))
        s.updateIfDue(frame, now: 1, minimumInterval: 0.1)
        #expect(s.updates == 1)
        s.consumed(s.pendingOutput)
        _ = s.receive(ArraySlice(updateRequest(incremental: true, w: 64, h: 48)))
        s.damaged([PixelRect(x0: 8, y0: 8, x1: 9, y1: 9)])
        s.updateIfDue(frame, now: 1.05, minimumInterval: 0.1)
        #expect(s.updates == 1)
        #expect(s.nextUpdate(minimumInterval: 0.1) == 1.1)
        s.updateIfDue(frame, now: 1.1, minimumInterval: 0.1)
        #expect(s.updates == 2)
    }

    @Test func aSlowViewerSkipsFramesAndItsDamageAddsUp() {
        let s = readySession()
        let frame = PixelBuffer(width: 64, height: 48)
        _ = s.receive(ArraySlice(updateRequest(incremental: false, w: 64, h: 48)))
        s.updateIfDue(frame, now: 1, minimumInterval: 0)
        let held = s.pendingOutput
        _ = s.receive(ArraySlice(updateRequest(incremental: true, w: 64, h: 48)))
        for i in 0..<100 {
            s.damaged([PixelRect(x0: i % 60, y0: 0, x1: i % 60 + 2, y1: 2)])
            s.updateIfDue(frame, now: 2 + Double(i), minimumInterval: 0)
        }
        // Nothing more queued while the first update has not left.
        #expect(s.pendingOutput == held)
        #expect(s.dirty.count <= ViewerSession.maximumDirtyRects)
        s.consumed(held)
        s.updateIfDue(frame, now: 200, minimumInterval: 0)
        #expect(s.updates == 2)
    }

    @Test func aHugeCutTextIsDroppedAsItArrivesAndTheNextMessageIsRead() {
        let s = readySession()
        let length = 50_000_000
        _ = s.receive([6, 0, 0, 0, UInt8(length >> 24), UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)])
        var left = length
        let chunk = [UInt8](repeating: 0x41, count: 65_536)
        while left > 0 {
            let n = min(left, chunk.count)
            #expect(s.receive(chunk[0..<n]).isEmpty)
            #expect(s.wantsInput)
            left -= n
        }
        #expect(s.receive([5, 1, 0, 10, 0, 20]) == [.pointer(buttons: 1, x: 10, y: 20)])
        #expect(!s.isClosed)
    }

    @Test func tooManyEncodingsOrAnUnknownMessageCloseTheSession() {
        let a = readySession()
        _ = a.receive([2, 0, 0xFF, 0xFF])
        #expect(a.isClosed)
        let b = readySession()
        _ = b.receive([200])
        #expect(b.isClosed)
    }

    @Test func setEncodingsPicksTheFirstKnownOne() {
        let s = readySession()
        // hextile (5, unknown here), ZRLE (16), raw (0), DesktopSize (-223)
        _ = s.receive([2, 0, 0, 4, 0, 0, 0, 5, 0, 0, 0, 16, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x21])
        #expect(s.encoding == .zrle)
        #expect(s.followsResize)
    }
}
