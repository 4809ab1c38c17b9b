import Testing
@testable import DialKioskApp

/// The oracle reads an error's place in bytes: a key that starts with a combining mark (the
/// fuzzer's finding `\u{747}\u{7D9}pect:`) joins the space before it into one Character.
@Suite struct FuzzOracleUnicodeTests {
    @Test(arguments: ["\u{747}\u{7D9}pect: 1\n", "\u{301}items: []\n", "items:\n  - label: a\n    \u{20DD}x: 1\n"])
    func aKeyStartingWithACombiningMarkIsStillLocated(_ text: String) {
        #expect(FuzzOracle.check(.config, Array(text.utf8)) == nil)
    }
}
