import Glibc
import KioskTestSupport
import Testing
@testable import KioskLock

/// The state at rest: its text, torn and hostile files refused with their place and read as the
/// most restrictive state, and the store's writes.
@Suite struct LockStateTests {
    @Test func roundTrips() throws {
        for state in [LockState(), LockState(failures: 7, lastFailure: 1_765_100_000.25), LockState(failures: 1, lastFailure: 0.0004)] {
            let back = try LockState.parse(Array(state.text.utf8), file: "s").get()
            #expect(back.failures == state.failures)
            // Kept to the millisecond, rounded up: a refusal read back is never shorter.
            if let last = state.lastFailure { #expect(back.lastFailure! >= last && back.lastFailure! - last < 0.001) }
        }
    }

    static func edited(_ transform: (String) -> String) -> [UInt8] {
        Array(transform(LockState(failures: 7, lastFailure: 1000).text).utf8)
    }

    static let hostile: [(name: String, bytes: [UInt8], located: String)] = [
        ("empty", [], "s: cut short"),
        ("torn", Array(LockState(failures: 7, lastFailure: 1000).text.utf8.prefix(30)), "s: cut short"),
        ("torn at a line end", edited { String($0.split(separator: "\n")[0...1].joined(separator: "\n")) + "\n" }, "s:2: expected 4 lines, got 2"),
        ("no magic", edited { $0.replacingFirst("dialkiosk-lock-state 1", "lock 1") }, "s:1: expected 'dialkiosk-lock-state 1'"),
        ("count edited", edited { $0.replacingFirst("failures 7", "failures 0") }, "s:4: check: does not match"),
        ("no check", edited { String($0.split(separator: "\n")[0...2].joined(separator: "\n")) + "\nnope\n" }, "s:4: check: expected"),
        ("binary", [0xFF, 0xFE, 0x00, 0x0A], "s: not UTF-8"),
        ("huge", Array(repeating: 0x41, count: 4096), "s: 4096 bytes"),
    ]

    @Test(arguments: 0..<LockStateTests.hostile.count)
    func hostileFilesAreRefusedWithTheirPlace(index: Int) {
        let h = Self.hostile[index]
        switch LockState.parse(h.bytes, file: "s") {
        case .success(let state): Issue.record("\(h.name) read as \(state)")
        case .failure(let problem): #expect(problem.description.hasPrefix(h.located), "\(h.name): \(problem)")
        }
    }

    /// A file whose check matches but whose values are wrong (written by hand, with the check
    /// recomputed) is refused at its line too.
    @Test(arguments: [("failures -1", "s:2: failures"), ("failures 99999999999", "s:2: failures"), ("failures 1e3", "s:2: failures"),
                      ("last_failure nan", "s:3: last_failure"), ("last_failure -5", "s:3: last_failure"),
                      ("last_failure 1e300", "s:3: last_failure")])
    func wrongValuesWithAGoodCheck(line: String, located: String) {
        let key = line.split(separator: " ")[0]
        var lines = LockState(failures: 7, lastFailure: 1000).text.split(separator: "\n").map(String.init)
        let i = lines.firstIndex { $0.hasPrefix(key + " ") }!
        lines[i] = line
        let body = lines[0..<3].map { $0 + "\n" }.joined()
        let text = body + "check \(LockState.check(body))\n"
        switch LockState.parse(Array(text.utf8), file: "s") {
        case .success(let state): Issue.record("\(line) read as \(state)")
        case .failure(let problem): #expect(problem.description.hasPrefix(located), "\(problem)")
        }
    }

    @Test func theMostRestrictiveStateRefusesTheLongest() {
        let state = LockState.mostRestrictive(at: 500)
        #expect(state.verdict(at: 500) == .refused(until: 500 + LockBackoff.longestRefusal))
        #expect(state.failures >= LockBackoff.freeFailures)
    }

    @Test func theStoreSavesAndLoadsAndTrustsNothingElse() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = LockStateStore(directory: dir.path)
        let fresh = store.load(now: 10)
        #expect(fresh.state == LockState() && fresh.problem == nil, "no file: nothing failed yet")
        try store.save(LockState(failures: 6, lastFailure: 42))
        #expect(store.load(now: 50).state == LockState(failures: 6, lastFailure: 42))
        #expect(fileMode(store.path)! & 0o777 == 0o600)
        #expect(fileMode(store.path + ".new") == nil, "no temporary left behind")

        // Torn (as a write that bypassed the rename would leave it): refused, most restrictive.
        writeFile(store.path, String(LockState(failures: 6, lastFailure: 42).text.prefix(40)), mode: 0o600)
        let torn = store.load(now: 50)
        #expect(torn.state == .mostRestrictive(at: 50))
        #expect(torn.problem?.description.hasPrefix(store.path + ": cut short") == true, "\(String(describing: torn.problem))")

        // A symbolic link in its place is not followed.
        unlink(store.path)
        writeFile(dir.path + "/elsewhere", LockState().text, mode: 0o600)
        symlink(dir.path + "/elsewhere", store.path)
        let linked = store.load(now: 60)
        #expect(linked.state == .mostRestrictive(at: 60))
        #expect(linked.problem?.description.hasPrefix(store.path + ": cannot be opened") == true, "\(String(describing: linked.problem))")

        // A directory in its place.
        unlink(store.path)
        mkdir(store.path, 0o700)
        #expect(store.load(now: 70).state == .mostRestrictive(at: 70))
        #expect(store.load(now: 70).problem?.description == store.path + ": not a regular file")
    }

    @Test func theLedgerCountsATryBeforeTheCheckAndClearsOnlyOnSuccess() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let ledger = LockLedger(store: LockStateStore(directory: dir.path), now: 0)
        for i in 1...5 {
            #expect(try ledger.begin(at: Double(i)) == .allowed)
            // On the disk before begin returned.
            #expect(LockStateStore(directory: dir.path).load(now: 0).state.failures == i)
        }
        #expect(try ledger.begin(at: 6) == .refused(until: 35), "the fifth refuses 30 s")
        #expect(LockStateStore(directory: dir.path).load(now: 0).state.failures == 5, "a refused try is not counted")
        #expect(try ledger.begin(at: 35) == .allowed)
        try ledger.succeeded()
        #expect(LockStateStore(directory: dir.path).load(now: 0).state == LockState())
        // A new ledger on a torn file starts most restrictive.
        writeFile(dir.path + "/lock-state", "dialkiosk-lock-state 1\nfail", mode: 0o600)
        let reopened = LockLedger(store: LockStateStore(directory: dir.path), now: 100)
        #expect(reopened.problem != nil)
        #expect(try reopened.begin(at: 100) == .refused(until: 100 + LockBackoff.longestRefusal))
    }
}

extension String {
    func replacingFirst(_ target: String, _ replacement: String) -> String {
        // By bytes: Swift 6.0's firstRange(of:) on String resolves to a collection overload.
        let bytes = Array(utf8), wanted = Array(target.utf8)
        guard !wanted.isEmpty, bytes.count >= wanted.count else { return self }
        for i in 0...(bytes.count - wanted.count) where bytes[i..<(i + wanted.count)].elementsEqual(wanted) {
            return String(decoding: bytes[..<i], as: UTF8.self) + replacement
                + String(decoding: bytes[(i + wanted.count)...], as: UTF8.self)
        }
        return self
    }
}
