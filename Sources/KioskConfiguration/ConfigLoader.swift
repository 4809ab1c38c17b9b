import DialRender
import LinuxSystem

/// Reads a configuration file from disk and parses it. No path means the demo menu.
package enum ConfigLoader {
    /// The configuration in `path`, or `KioskConfig.demo` when `path` is nil.
    package static func load(path: String?) throws -> KioskConfig {
        guard let path else { return .demo }
        return try ConfigParser.parse(try readText(path), file: path)
    }

    /// The file's text as UTF-8; a missing or unreadable file, or one that is not a regular
    /// file (a FIFO would block the read forever), is `.unreadable` (exit 66).
    package static func readText(_ path: String) throws -> String {
        let file: FileDescriptor
        do { file = try RegularFile.open(path) } catch let e as RegularFile.Failure {
            throw ConfigError(kind: .unreadable, file: path, line: nil, key: nil, message: "cannot open: \(e.reason)")
        }
        // The size the file says it has, before reading it: a huge file is named by its real
        // size, and not read at all.
        try ConfigLimits.checkFileSize(file.size, file: path)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let n: Int
            switch chunk.withUnsafeMutableBytes({ file.read(into: $0) }) {
            case .success(let count): n = count
            case .failure(let failure):
                throw ConfigError(kind: .unreadable, file: path, line: nil, key: nil, message: "cannot read: \(failure)")
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > ConfigLimits.fileBytes { try ConfigLimits.checkFileSize(max(bytes.count, file.size), file: path) }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigError(file: path, line: firstInvalidLine(bytes), key: nil, message: "not UTF-8 text")
        }
        return text
    }

    /// The line of the first byte sequence that is not UTF-8, for the message.
    package static func firstInvalidLine(_ bytes: [UInt8]) -> Int {
        var line = 1
        var start = 0
        for (i, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            if String(validating: bytes[start..<i], as: UTF8.self) == nil { return line }
            line += 1
            start = i + 1
        }
        return line
    }
}
