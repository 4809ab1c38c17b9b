/// The lock's record at rest: wrong PINs in a row and when the last one came (wall-clock
/// seconds), from which `LockBackoff` gives the refusal. Its file is four lines, the last a
/// checksum of the others, so a torn or edited file is told from a real one:
///
///     dialkiosk-lock-state 1
///     failures 7
///     last_failure 1765100000.250
///     check 8c1f0e2a9b3d4c51
package struct LockState: Sendable, Equatable {
    package var failures: Int
    package var lastFailure: Double?

    package init(failures: Int = 0, lastFailure: Double? = nil) {
        self.failures = failures
        self.lastFailure = lastFailure
    }

    /// What the lock assumes when its file cannot be trusted: enough failures for the longest
    /// refusal, the last one now. Never zero failures: a damaged file must not open the ring.
    package static func mostRestrictive(at now: Double) -> LockState {
        var failures = LockBackoff.freeFailures
        while LockBackoff.refusal(after: failures) < LockBackoff.longestRefusal { failures += 1 }
        return LockState(failures: failures, lastFailure: now)
    }

    /// The verdict at `now`.
    package func verdict(at now: Double) -> LockBackoff.Verdict {
        LockBackoff.verdict(failures: failures, lastFailure: lastFailure, now: now)
    }

    /// One more wrong PIN at `now`. The count stops at `maximumFailures` (the refusal stopped
    /// growing long before).
    package func failed(at now: Double) -> LockState {
        LockState(failures: min(failures + 1, Self.maximumFailures), lastFailure: max(now, lastFailure ?? now))
    }

    package static let maximumFailures = 1_000_000
    static let magic = "dialkiosk-lock-state 1"
    /// A real file is about 90 bytes; anything much longer is not one.
    static let maximumBytes = 512

    /// The file's text.
    package var text: String {
        let body = "\(Self.magic)\nfailures \(failures)\nlast_failure \(lastFailure.map { Self.seconds($0) } ?? "-")\n"
        return body + "check \(Self.check(body))\n"
    }

    /// Reads a file's bytes; a problem names the line and key that are wrong.
    package static func parse(_ bytes: [UInt8], file: String) -> Result<LockState, LockFileProblem> {
        func problem(_ line: Int?, _ key: String?, _ message: String) -> Result<LockState, LockFileProblem> {
            .failure(LockFileProblem(file: file, line: line, key: key, message: message))
        }
        guard bytes.count <= maximumBytes else { return problem(nil, nil, "\(bytes.count) bytes: not a lock state (at most \(maximumBytes))") }
        guard let text = String(validating: bytes, as: UTF8.self) else { return problem(nil, nil, "not UTF-8 text: not a lock state") }
        guard text.hasSuffix("\n") else { return problem(nil, nil, "cut short (no newline at its end): a torn write") }
        let lines = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.first == magic else { return problem(1, nil, "expected '\(magic)'") }
        guard lines.count == 4 else { return problem(min(lines.count, 5), nil, "expected 4 lines, got \(lines.count)") }
        func value(_ index: Int, _ key: String) -> String? {
            let prefix = key + " "
            return lines[index].hasPrefix(prefix) ? String(lines[index].dropFirst(prefix.count)) : nil
        }
        guard let check = value(3, "check") else { return problem(4, "check", "expected 'check HEX'") }
        let body = lines[0..<3].map { $0 + "\n" }.joined()
        guard check == Self.check(body) else { return problem(4, "check", "does not match the lines above: a torn or edited file") }
        guard let count = value(1, "failures") else { return problem(2, "failures", "expected 'failures N'") }
        guard let failures = Int(count), (0...maximumFailures).contains(failures), count.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return problem(2, "failures", "expected a count from 0 to \(maximumFailures), got '\(count.prefix(40))'")
        }
        guard let last = value(2, "last_failure") else { return problem(3, "last_failure", "expected 'last_failure SECONDS' or '-'") }
        if last == "-" {
            guard failures == 0 else { return problem(3, "last_failure", "'-' (none) with \(failures) failures") }
            return .success(LockState())
        }
        guard last.utf8.allSatisfy({ (0x30...0x39).contains($0) || $0 == 0x2E }), let seconds = Double(last),
              seconds.isFinite, seconds >= 0, seconds < 1e11 else {
            return problem(3, "last_failure", "expected wall-clock seconds, got '\(last.prefix(40))'")
        }
        return .success(LockState(failures: failures, lastFailure: seconds))
    }

    /// Seconds with three decimals (rounded up: a refusal read back is never shorter), without
    /// Foundation's formatting.
    static func seconds(_ value: Double) -> String {
        let millis = Int64((max(0, value) * 1000).rounded(.up))
        let fraction = String(millis % 1000)
        return "\(millis / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// FNV-1a over the text, 16 hex digits: against tearing and slips, not against someone who
    /// can write the state directory (who could write any count).
    static func check(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
