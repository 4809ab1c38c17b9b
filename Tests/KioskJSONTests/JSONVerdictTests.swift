import Foundation
import Testing
@testable import KioskJSON

/// The RFC 8259 table (Tests/KioskJSONTests/Fixtures/rfc8259-verdicts.tsv, written by
/// scripts/json-verdicts.py from Python's json module): every case's verdict, and for
/// accepted strings the decoded text, byte for byte.
@Suite struct JSONVerdictTests {
    static let root = String(#filePath).split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/")

    struct Row: CustomStringConvertible {
        var python: String, ours: String, input: [UInt8], decoded: [UInt8]?, name: String
        var description: String { name }
    }

    static func bytes(hex: Substring) -> [UInt8] {
        guard hex != "-" else { return [] }
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            out.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return out
    }

    static func rows() throws -> [Row] {
        let text = try String(contentsOfFile: root + "/Tests/KioskJSONTests/Fixtures/rfc8259-verdicts.tsv", encoding: .utf8)
        return text.split(separator: "\n").map { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            return Row(python: String(f[0]), ours: String(f[1]), input: bytes(hex: f[2]),
                       decoded: f[3] == "-" ? nil : bytes(hex: f[3]), name: String(f[4]))
        }
    }

    @Test func everyCaseGetsItsVerdict() throws {
        let rows = try Self.rows()
        #expect(rows.count > 150)
        #expect(rows.filter { $0.ours == "accept" }.count > 50)
        for row in rows {
            // Only the bound's cases may differ from Python's verdict.
            #expect(row.python == row.ours || row.name.hasPrefix("bound:"), "\(row.name)")
            let result = JSONReader.parse(row.input)
            switch (result, row.ours) {
            case (.success(let value), "accept"):
                if let decoded = row.decoded {
                    guard case .string(let s) = value else {
                        Issue.record("\(row.name): \(value.kind), not a string")
                        continue
                    }
                    #expect(Array(s.utf8) == decoded, "\(row.name)")
                }
            case (.failure(let error), "refuse"):
                #expect(error.offset >= 0 && error.offset <= max(row.input.count, 1), "\(row.name): \(error)")
                #expect(!error.message.isEmpty && !error.description.contains("\n"), "\(row.name): \(error)")
            case (.success(let value), _):
                Issue.record("\(row.name): accepted as \(value.kind), Python's json refuses it")
            case (.failure(let error), _):
                Issue.record("\(row.name): refused (\(error)), Python's json accepts it")
            }
        }
    }

    /// The committed verdicts are what this host's python3 says (skipped without python3).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
    func theFixtureAgreesWithPython() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.root + "/scripts/json-verdicts.py", "--check"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(output)")
    }
}
