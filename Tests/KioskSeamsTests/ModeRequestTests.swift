import KioskSeams
import Testing

/// `WxH[@Hz]` has one parser for `run --mode`, `display.mode` and every `--size`: its edge cases
/// are all here.
@Suite struct ModeRequestTests {
    @Test func parsesSizesAndRates() throws {
        #expect(try ModeRequest(parsing: "1024x768") == ModeRequest(width: 1024, height: 768))
        #expect(try ModeRequest(parsing: "1920X1080") == ModeRequest(width: 1920, height: 1080))
        #expect(try ModeRequest(parsing: "1920x1080@59.94") == ModeRequest(width: 1920, height: 1080, refreshHz: 59.94))
        #expect(try ModeRequest(parsing: "16x16384@999.9") == ModeRequest(width: 16, height: 16384, refreshHz: 999.9))
        #expect(try ModeRequest(parsing: "0800x0480") == ModeRequest(width: 800, height: 480))
        #expect(try ModeRequest(parsing: "800x480", allowingRate: false) == ModeRequest(width: 800, height: 480))
    }

    @Test(arguments: ["", "1024", "1024x", "x768", "1024x768@", "1024x768@60@1", "-1x5", "+800x480", "axb",
                      " 800x480", "800x480 ", "800 x 480", "800xx480", "800x480x2", "0x10x480", "1e3x480",
                      "800x480@+60", "800x480@60.", "800x480@.5", "800x480@0x3C", "800x480@inf", "800x480@nan",
                      "800x480@1e2", "８００x480"])
    func refusesWhatIsNotWxH(text: String) {
        #expect(throws: ModeTextError(text: text, problem: .notWxH, allowsRate: true)) { try ModeRequest(parsing: text) }
    }

    @Test(arguments: ["0x0", "0x480", "800x0", "15x480", "800x16385", "99999999999999999999999x480",
                      "9223372036854775807x1"])
    func refusesSizesOutOfRange(text: String) {
        #expect(throws: ModeTextError(text: text, problem: .size, allowsRate: true)) { try ModeRequest(parsing: text) }
    }

    @Test(arguments: ["800x480@0", "800x480@0.0", "800x480@1000", "800x480@99999999999999999999"])
    func refusesRatesOutOfRange(text: String) {
        #expect(throws: ModeTextError(text: text, problem: .rate, allowsRate: true)) { try ModeRequest(parsing: text) }
    }

    @Test func aSizeTakesNoRate() {
        #expect(throws: ModeTextError(text: "800x480@60", problem: .notWxH, allowsRate: false)) {
            try ModeRequest(parsing: "800x480@60", allowingRate: false)
        }
    }

    /// One set of words, which every caller prefixes with where the text came from.
    @Test func errorsSayWhatWasExpected() {
        #expect(ModeTextError(text: "big", problem: .notWxH, allowsRate: true).description
            == "expected WxH or WxH@Hz (like 1280x800@60), got 'big'")
        #expect(ModeTextError(text: "8x8", problem: .size, allowsRate: false).description
            == "expected WxH (like 800x480) with width and height from 16 to 16384, got '8x8'")
        #expect(ModeTextError(text: "8x8@0", problem: .rate, allowsRate: true).description
            == "expected WxH or WxH@Hz (like 1280x800@60) with a rate above 0 and below 1000 Hz, got '8x8@0'")
    }

    @Test func printsAsItParses() throws {
        for text in ["1920x1080", "1920x1080@60", "800x480@59.94"] {
            #expect(try ModeRequest(parsing: text).description == text)
        }
    }
}
