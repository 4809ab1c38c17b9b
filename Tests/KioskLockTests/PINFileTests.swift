import DialCore
import FleetConfig
import Glibc
import KioskTestSupport
import LinuxSystem
import Testing
@testable import KioskLock

/// The PIN file: its owner and mode, its lines, and the Argon2id check against libsodium itself.
@Suite struct PINFileTests {
    static let kioskGroup: gid_t = 4242

    @Test(arguments: [
        (0o640, 0, 4242, nil), (0o600, 0, 4242, nil), (0o440, 0, 4242, nil), (0o640, 0, 0, nil),
        (0o644, 0, 4242, "mode 0644"), (0o660, 0, 4242, "mode 0660"), (0o642, 0, 4242, "mode 0642"),
        (0o740, 0, 4242, "mode 0740"), (0o4640, 0, 4242, "mode 4640"),
        (0o640, 1000, 4242, "owned by uid 1000"), (0o640, 0, 100, "group 100 may read it"),
    ] as [(mode_t, uid_t, gid_t, String?)])
    func ownerAndModeRule(mode: mode_t, uid: uid_t, gid: gid_t, refusal: String?) {
        let why = PINFile.problem(mode: S_IFREG | mode, uid: uid, gid: gid, owner: 0, groups: [0, Self.kioskGroup])
        if let refusal {
            #expect(why?.hasPrefix(refusal) == true, "\(String(describing: why))")
        } else {
            #expect(why == nil)
        }
    }

    static let good = PINFile(digits: 4, hash: "$argon2id$v=19$m=65536,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g")

    @Test(arguments: [
        ("dialkiosk-pin 2\ndigits 4\nhash x\n", "p:1: expected 'dialkiosk-pin 1'"),
        ("dialkiosk-pin 1\ndigits 4\n", "p:2: expected 3 lines, got 2"),
        ("dialkiosk-pin 1\ndigits 40\nhash x\n", "p:2: digits: expected 'digits N', N from 4 to 12"),
        ("dialkiosk-pin 1\ndigits 4\nhash $2y$10$abc\n", "p:3: hash: expected an Argon2id string"),
        ("dialkiosk-pin 1\ndigits 4\nhash $argon2id$v=19$m=4194304,t=2,p=1$c2FsdA$aGFzaA\n", "p:3: hash: asks 4096 MiB"),
        ("dialkiosk-pin 1\ndigits 4\nhash $argon2id$v=19$t=2,p=1$c2FsdA$aGFzaA\n", "p:3: hash: expected the fields"),
        ("dialkiosk-pin 1\ndigits 4", "p: not a PIN file"),
    ])
    func badLinesAreLocated(text: String, located: String) {
        switch PINFile.parse(Array(text.utf8), file: "p") {
        case .success(let file): Issue.record("read as \(file)")
        case .failure(let problem):
            #expect(problem.description.hasPrefix(located), "\(problem)")
            #expect(problem.exitStatus.rawValue == 78)
        }
    }

    @Test func theReaderChecksTheRealFilesModeAndOwner() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/pin"
        try Self.good.write(to: path, uid: getuid(), gid: getgid())
        #expect(fileMode(path)! & 0o7777 == 0o640)
        #expect(try PINFile.read(path, owner: getuid(), groups: [getgid()]).get() == Self.good)
        chmod(path, 0o644)
        switch PINFile.read(path, owner: getuid(), groups: [getgid()]) {
        case .success: Issue.record("a world-readable PIN file was read")
        case .failure(let problem): #expect(problem.description.hasPrefix(path + ": mode 0644"), "\(problem)")
        }
        chmod(path, 0o640)
        switch PINFile.read(path, owner: getuid() + 1, groups: nil) {
        case .success: Issue.record("a PIN file of another owner was read")
        case .failure(let problem): #expect(problem.description.hasPrefix(path + ": owned by uid"), "\(problem)")
        }
        switch PINFile.read(dir.path + "/none", owner: getuid()) {
        case .success: Issue.record("a missing file was read")
        case .failure(let problem): #expect(problem.description.hasPrefix(dir.path + "/none: cannot be opened"))
        }
    }

    /// libsodium's own crypto_pwhash_str and crypto_pwhash_str_verify: the right PIN matches, a
    /// wrong one does not, two hashes of one PIN differ (salted), and the check runs on a
    /// ThreadJob whose hang-up a poll sees.
    @Test func argon2idThroughLibsodium() throws {
        let pin = try #require(PINEntry(ascii: Array("2468".utf8)))
        let file = try PINCheck.make(pin)
        #expect(file.hash.hasPrefix("$argon2id$v=19$m=65536,t=2,p=1$"), "\(file.hash)")
        #expect(PINFile.hashProblem(file.hash) == nil)
        #expect(file.digits == 4)
        #expect(!file.text.contains("2468"))
        #expect(PINCheck.check(pin, against: file) == .right)
        #expect(PINCheck.check(PINEntry(ascii: Array("2469".utf8))!, against: file) == .wrong)
        #expect(PINCheck.check(PINEntry(ascii: Array("24680".utf8))!, against: file) == .wrong)
        #expect(try PINCheck.make(pin).hash != file.hash, "a fresh salt each time")
        #expect(try !Sodium.passwordMatches(Array("2468".utf8), hash: "$argon2id$garbage"))

        let job = try PINCheck.start(pin, against: file)
        var fds = [job.pollDescriptor]
        var outcome: PINCheck.Outcome?
        for _ in 0..<300 where outcome == nil {
            _ = poll(&fds, 1, 100)
            outcome = job.finished(in: fds)
        }
        #expect(outcome == .right)
    }
}
