import Testing
@testable import KioskLock

/// The back-off rule as a table: (failures, last failure, now) -> allowed or refused until.
@Suite struct LockBackoffTests {
    @Test(arguments: [
        (0, 0.0), (1, 0), (4, 0), (5, 30), (6, 60), (7, 120), (8, 240), (9, 480), (10, 900), (11, 900), (30, 900),
        (1_000_000, 900), (Int.max, 900),
    ] as [(Int, Double)])
    func refusalDoublesFromThirtySecondsToFifteenMinutes(failures: Int, seconds: Double) {
        #expect(LockBackoff.refusal(after: failures) == seconds)
    }

    static let rows: [(failures: Int, last: Double?, now: Double, verdict: LockBackoff.Verdict)] = [
        (0, nil, 100, .allowed),
        (4, 100, 100, .allowed),                         // four in a row cost nothing
        (5, 100, 100, .refused(until: 130)),             // the fifth refuses 30 s
        (5, 100, 129.999, .refused(until: 130)),
        (5, 100, 130, .allowed),                         // and then one more try
        (6, 130, 131, .refused(until: 190)),             // doubling
        (7, 190, 200, .refused(until: 310)),
        (10, 1000, 1899, .refused(until: 1900)),         // capped at 15 min
        (25, 1000, 1900, .allowed),
        (5, 100, 50, .refused(until: 80)),               // the clock went back: counted from now, never shorter
        (10, 5000, 10, .refused(until: 910)),
        (5, nil, 100, .refused(until: 130)),             // failures without a time: from now
        (5, .infinity, 100, .refused(until: 130)),
    ]

    @Test(arguments: 0..<LockBackoffTests.rows.count)
    func verdictTable(row: Int) {
        let r = Self.rows[row]
        #expect(LockBackoff.verdict(failures: r.failures, lastFailure: r.last, now: r.now) == r.verdict, "row \(row)")
    }

    /// Thirty wrong PINs, each as soon as the rule allows: the waits are the rule's, in order.
    @Test func thirtyFailuresWaitWhatTheRuleSays() {
        var state = LockState()
        var now = 0.0
        var waits: [Double] = []
        for _ in 0..<30 {
            if case .refused(let until) = state.verdict(at: now) {
                waits.append(until - now)
                now = until
            }
            state = state.failed(at: now)
        }
        #expect(waits == [30, 60, 120, 240, 480] + Array(repeating: 900, count: 20))
        #expect(state.failures == 30)
    }
}
