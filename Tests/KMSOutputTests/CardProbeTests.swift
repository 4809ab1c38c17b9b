import Testing
import CDRM
@testable import KMSOutput

@Suite struct CardProbeTests {
    /// VESA 1024x768@60: 65 MHz, 1344 x 806 totals.
    private func xga(flags: UInt32 = 0, type: UInt32 = 0) -> drmModeModeInfo {
        var m = drmModeModeInfo()
        m.clock = 65000
        m.hdisplay = 1024
        m.htotal = 1344
        m.vdisplay = 768
        m.vtotal = 806
        m.vrefresh = 60
        m.flags = flags
        m.type = type
        withUnsafeMutableBytes(of: &m.name) { raw in
            for (i, b) in "1024x768".utf8.enumerated() { raw[i] = b }
        }
        return m
    }

    @Test func refreshComesFromTheClockAndTotals() {
        let info = CardProbe.modeInfo(xga())
        #expect(info.width == 1024 && info.height == 768)
        #expect(abs(info.refreshHz - 60.0038) < 0.001)
        #expect(info.name == "1024x768")
        #expect(info.summary == "1024x768@60.00")
        #expect(!info.preferred)
    }

    @Test func interlaceDoublesAndDoubleScanHalves() {
        #expect(abs(CardProbe.modeInfo(xga(flags: UInt32(DRM_MODE_FLAG_INTERLACE))).refreshHz - 120.0076) < 0.001)
        #expect(abs(CardProbe.modeInfo(xga(flags: UInt32(DRM_MODE_FLAG_DBLSCAN))).refreshHz - 30.0019) < 0.001)
    }

    @Test func preferredBitIsRead() {
        #expect(CardProbe.modeInfo(xga(type: UInt32(DRM_MODE_TYPE_PREFERRED | DRM_MODE_TYPE_DRIVER))).preferred)
        #expect(!CardProbe.modeInfo(xga(type: UInt32(DRM_MODE_TYPE_DRIVER))).preferred)
    }

    @Test func zeroTotalsFallBackToVrefresh() {
        var m = xga()
        m.htotal = 0
        #expect(CardProbe.modeInfo(m).refreshHz == 60)
    }

    @Test func cardsSortByNumberNotText() {
        let paths = ["/dev/dri/card10", "/dev/dri/card2", "/dev/dri/card0"]
        #expect(paths.sorted { CardDiscovery.cardNumber($0) < CardDiscovery.cardNumber($1) }
                == ["/dev/dri/card0", "/dev/dri/card2", "/dev/dri/card10"])
    }

    @Test func xrgb8888IsTheKernelFourcc() {
        let fourcc = "XR24".utf8.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
        #expect(DumbBuffer.xrgb8888 == fourcc)
    }
}
