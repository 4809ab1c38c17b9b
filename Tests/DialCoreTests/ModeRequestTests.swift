import Testing
import DialCore

@Suite struct ModeRequestTests {
    @Test func modeRequestParsing() throws {
        #expect(ModeRequest(parsing: "1024x768") == ModeRequest(width: 1024, height: 768))
        #expect(ModeRequest(parsing: "1920x1080@59.94") == ModeRequest(width: 1920, height: 1080, refreshHz: 59.94))
        for bad in ["", "1024", "1024x", "x768", "1024x768@", "1024x768@60@1", "-1x5", "0x0", "axb", "10x10@0"] {
            #expect(ModeRequest(parsing: bad) == nil, "\(bad)")
        }
    }
}
