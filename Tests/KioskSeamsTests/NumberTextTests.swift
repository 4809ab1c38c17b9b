import KioskSeams
import Testing

/// The program's two number forms: fixed decimals for people, the shortest exact form for JSON.
@Suite struct NumberTextTests {
    @Test func fixedRoundsToTheDigitsAsked() {
        #expect(fixed(59.96, 1) == "60.0")
        #expect(fixed(0.5, 6) == "0.500000")
        #expect(fixed(-1.25, 2) == "-1.25")
        #expect(fixed(-0.0001, 2) == "0.00")
        #expect(fixed(3, 0) == "3")
        #expect(fixed(2.5, 0) == "3")
        #expect(fixed(59.9401, 2) == "59.94")
        #expect(fixed(1e300, 2) == "1e+300")
        #expect(fixed(.infinity, 2) == "inf")
    }

    @Test func trimmedDropsTrailingZeros() {
        #expect(fixed(60, 3, trimmed: true) == "60")
        #expect(fixed(59.94, 3, trimmed: true) == "59.94")
        #expect(fixed(154.25, 1, trimmed: true) == "154.3")
        #expect(fixed(-0.5, 6, trimmed: true) == "-0.5")
        #expect(fixed(1.0 / 3, 6, trimmed: true) == "0.333333")
    }

    @Test func shortestExactReadsBackTheSameDouble() {
        for value in [0.1, 1.0 / 3, 60, -1.5e-7, 1e300, Double.leastNonzeroMagnitude] {
            #expect(Double(shortestExact(value)) == value)
        }
        #expect(shortestExact(9) == "9.0")
        #expect(shortestExact(.nan) == "null")
        #expect(shortestExact(-.infinity) == "null")
    }
}
