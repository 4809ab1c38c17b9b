import DialCore
import LinuxSystem

/// The PIN at rest: its Argon2id hash string (salt and costs inside it) and its number of
/// digits (for "digit 3 of 4"), in a file root owns and the kiosk's group may only read, made by
/// `dialkiosk lock set-pin`:
///
///     dialkiosk-pin 1
///     digits 4
///     hash $argon2id$v=19$m=65536,t=2,p=1$...$...
package struct PINFile: Sendable, Equatable {
    package var digits: Int
    package var hash: String

    package init(digits: Int, hash: String) {
        self.digits = digits
        self.hash = hash
    }

    /// The file's mode: root reads and writes, the kiosk's group reads, nobody else anything.
    package static let mode: UInt32 = 0o640
    /// The most memory one check may take (KiB, the hash's `m=`): a file asking more is refused
    /// rather than let a check take the kiosk's memory.
    package static let maximumMemoryKiB = 256 * 1024
    static let magic = "dialkiosk-pin 1"
    static let maximumBytes = 1024

    package var text: String { "\(Self.magic)\ndigits \(digits)\nhash \(hash)\n" }

    /// Why a file of `mode` owned by `uid`:`gid` is no PIN file for a kiosk that trusts only
    /// `owner` to write it and `groups` to read it (nil: any group); nil when it is fine.
    package static func problem(mode: UInt32, uid: UInt32, gid: UInt32, owner: UInt32, groups: Set<UInt32>?) -> String? {
        let permissions = mode & 0o7777
        if uid != owner { return "owned by uid \(uid), not \(owner == 0 ? "root" : "uid \(owner)"): only root may write the PIN (dialkiosk lock set-pin)" }
        if permissions & ~Self.mode != 0 {
            return "mode \(octal(permissions)) lets more than root write it or more than its group read it; expected \(octal(Self.mode)) (dialkiosk lock set-pin)"
        }
        if permissions & 0o040 != 0, let groups, !groups.contains(gid) {
            return "group \(gid) may read it; expected the kiosk's group (dialkiosk lock set-pin --group)"
        }
        return nil
    }

    static func octal(_ mode: UInt32) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Reads and checks the file at `path`: its owner and mode first, then every line.
    package static func read(_ path: String, owner: UInt32 = 0, groups: Set<UInt32>? = nil) -> Result<PINFile, LockFileProblem> {
        let fd: FileDescriptor
        switch FileDescriptor.open(path, [.readOnly, .noFollow, .nonBlocking]) {
        case .success(let f): fd = f
        case .failure(let errno): return .failure(LockFileProblem(file: path, message: "cannot be opened: \(errno) (make it with dialkiosk lock set-pin)"))
        }
        defer { fd.close() }
        let st: FileStatus
        switch FileStatus.of(fd) {
        case .success(let status): st = status
        case .failure(let errno): return .failure(LockFileProblem(file: path, message: "fstat: \(errno)"))
        }
        guard st.kind == .regular else { return .failure(LockFileProblem(file: path, message: "not a regular file")) }
        if let why = problem(mode: st.permissions, uid: st.owner, gid: st.group, owner: owner, groups: groups) {
            return .failure(LockFileProblem(file: path, message: why))
        }
        var chunk = [UInt8](repeating: 0, count: maximumBytes + 1)
        var bytes: [UInt8] = []
        while bytes.count <= maximumBytes {
            switch chunk.withUnsafeMutableBytes({ fd.read(into: $0) }) {
            case .success(0): return parse(bytes, file: path)
            case .success(let n): bytes += chunk.prefix(n)
            case .failure(let errno): return .failure(LockFileProblem(file: path, message: "cannot be read: \(errno)"))
            }
        }
        return .failure(LockFileProblem(file: path, message: "longer than \(maximumBytes) bytes: not a PIN file"))
    }

    /// The file's lines, each checked.
    package static func parse(_ bytes: [UInt8], file: String) -> Result<PINFile, LockFileProblem> {
        func problem(_ line: Int?, _ key: String?, _ message: String) -> Result<PINFile, LockFileProblem> {
            .failure(LockFileProblem(file: file, line: line, key: key, message: message))
        }
        guard bytes.count <= maximumBytes, let text = String(validating: bytes, as: UTF8.self), text.hasSuffix("\n") else {
            return problem(nil, nil, "not a PIN file (text of three lines, made by dialkiosk lock set-pin)")
        }
        let lines = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.first == magic else { return problem(1, nil, "expected '\(magic)'") }
        guard lines.count == 3 else { return problem(min(lines.count, 4), nil, "expected 3 lines, got \(lines.count)") }
        guard lines[1].hasPrefix("digits "), let digits = Int(lines[1].dropFirst(7)), PINRules.digits.contains(digits) else {
            return problem(2, "digits", "expected 'digits N', N from \(PINRules.digits.lowerBound) to \(PINRules.digits.upperBound)")
        }
        guard lines[2].hasPrefix("hash ") else { return problem(3, "hash", "expected 'hash $argon2id$...'") }
        let hash = String(lines[2].dropFirst(5))
        if let why = hashProblem(hash) { return problem(3, "hash", why) }
        return .success(PINFile(digits: digits, hash: hash))
    }

    /// Why `hash` is no Argon2id string this kiosk will check; nil when it is one.
    package static func hashProblem(_ hash: String) -> String? {
        let bytes = Array(hash.utf8)
        guard hash.hasPrefix("$argon2id$"), bytes.count < 128, bytes.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            return "expected an Argon2id string ($argon2id$v=19$m=...,t=...,p=...$SALT$HASH) under 128 characters"
        }
        let fields = hash.split(separator: "$")
        guard fields.count == 5, let costs = fields.first(where: { $0.hasPrefix("m=") }) else {
            return "expected the fields v=, m=,t=,p=, the salt and the hash"
        }
        var memory: Int?
        for cost in costs.split(separator: ",") where cost.hasPrefix("m=") { memory = Int(cost.dropFirst(2)) }
        guard let memory, memory > 0 else { return "its m= (memory, KiB) is not a number" }
        guard memory <= maximumMemoryKiB else {
            return "asks \(memory >> 10) MiB for a check, more than \(maximumMemoryKiB >> 10) MiB (make it again with dialkiosk lock set-pin)"
        }
        return nil
    }

    /// Writes the file atomically (`AtomicFile`), owned by `uid` and `gid`, mode 0640.
    package func write(to path: String, uid: UInt32, gid: UInt32) throws(LockFileError) {
        try AtomicFile(path: path).write(Array(text.utf8), mode: Self.mode, owner: (uid, gid))
    }
}
