import Testing
@testable import KioskJSON

/// Hostile shapes at n and 8n bytes: the reader's time grows about eightfold, far from the 64
/// of a quadratic reader (or the blow-up of the YAML reader that live payloads went through).
/// Ratios with a wide margin, each size timed as the best of several runs; never milliseconds.
@Suite(.serialized) struct JSONLinearTimeTests {
    static let limits = JSONLimits(maximumBytes: 1 << 24, maximumDepth: JSONLimits.standard.maximumDepth)

    /// Each family builds a payload of about `n` bytes.
    static let families: [(name: String, build: @Sendable (Int) -> String)] = [
        ("nesting to the bound, repeated", { n in
            let one = String(repeating: "[", count: 31) + "1" + String(repeating: "]", count: 31)
            return "[" + Array(repeating: one, count: max(1, n / 64)).joined(separator: ",") + "]"
        }),
        ("a long string of escapes", { n in
            "\"" + String(repeating: #"\ud83d\udd25\n\u00e9\\"#, count: max(1, n / 24)) + "\""
        }),
        ("many keys", { n in
            // Keys of one width, so the bytes grow with the count: "k00000042":1
            "{" + (0..<max(1, n / 14)).map { k in
                let digits = String(k)
                return "\"k" + String(repeating: "0", count: 8 - digits.count) + digits + "\":1"
            }.joined(separator: ",") + "}"
        }),
        ("YAML's exponential shapes: flow nesting and aliases in strings", { n in
            let one = #"{"a":[[[[[[[["&a *a *a"]]]]]]]],"b":{"c":{"d":[1,2,{"e":"[*b, *b]"}]}}}"#
            return "[" + Array(repeating: one, count: max(1, n / 70)).joined(separator: ",") + "]"
        }),
        ("long digit strings", { n in
            "[" + Array(repeating: "-" + String(repeating: "7", count: 300) + ".5e-3", count: max(1, n / 308)).joined(separator: ",") + "]"
        }),
        ("refused at the end: an unclosed array of strings", { n in
            "[" + Array(repeating: "\"abc\\u00e9\"", count: max(1, n / 12)).joined(separator: ",")
        }),
    ]

    static func seconds(_ text: String) -> Double {
        let bytes = Array(text.utf8)
        var best = Double.infinity
        for _ in 0..<5 {
            let clock = ContinuousClock()
            let start = clock.now
            _ = JSONReader.parse(bytes, limits: limits)
            let d = clock.now - start
            let s = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
            best = min(best, s)
        }
        return best
    }

    @Test(arguments: 0..<families.count)
    func eightTimesTheBytesIsFarFromSixtyFourTimesTheWork(family: Int) {
        let (name, build) = Self.families[family]
        // Both sizes past the caches, so the ratio is the reader's, not the memory's.
        let n = 256 * 1024
        let small = build(n), large = build(8 * n)
        #expect(large.utf8.count > 7 * small.utf8.count && large.utf8.count < 9 * small.utf8.count, "\(name)")
        _ = Self.seconds(small)  // warm
        // Linear: about 8. Quadratic: 64. Half of that takes a loaded machine's noise (other
        // suites run alongside); a pair over it is timed again once before it counts.
        var ratio = Self.seconds(large) / Self.seconds(small)
        if ratio >= 32 { ratio = Self.seconds(large) / Self.seconds(small) }
        #expect(ratio < 32, "\(name): 8x the bytes took \(ratio)x the time")
    }
}
