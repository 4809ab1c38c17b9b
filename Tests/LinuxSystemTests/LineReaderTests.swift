import Foundation
import Testing
@testable import LinuxSystem

@Suite struct LineReaderTests {
    private func lines(_ reader: inout LineReader) throws -> [String] {
        var out: [String] = []
        while let line = try reader.next() { out.append("\(line.number):\(line.text)") }
        return out
    }

    @Test func splitsLfAndCrlfAndKeepsALastLineWithoutAnEnd() throws {
        var reader = LineReader(bytes: Array("a\r\nb\n\nc\r\r\nd".utf8))
        #expect(try lines(&reader) == ["1:a", "2:b", "3:", "4:c\r", "5:d"])
        var empty = LineReader(bytes: [])
        #expect(try empty.next() == nil)
    }

    @Test func aLineOverTheLimitIsAnError() throws {
        var reader = LineReader(bytes: Array("ok\n12345\n".utf8), maximumLineBytes: 4)
        #expect(try reader.next()?.text == "ok")
        #expect(throws: LineReader.Failure.tooLong(line: 2, limit: 4)) { try reader.next() }
    }

    /// Lines across the 64 KiB reads of a file come out whole; an endless line from a device
    /// stops at the limit instead of filling memory.
    @Test func readsAFileAcrossChunksAndStopsAnEndlessLine() throws {
        let text = (1...30_000).map { "line \($0) " + String(repeating: "x", count: $0 % 97) }.joined(separator: "\n")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lines-\(getpid()).txt").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var reader = try LineReader(path: path, regularFileOnly: true)
        let read = try lines(&reader)
        #expect(read.count == 30_000)
        #expect(read.last == "30000:line 30000 " + String(repeating: "x", count: 30_000 % 97))
        var zero = try LineReader(path: "/dev/zero", regularFileOnly: false)
        #expect(throws: LineReader.Failure.tooLong(line: 1, limit: LineReader.defaultMaximumLineBytes)) { try zero.next() }
    }
}
