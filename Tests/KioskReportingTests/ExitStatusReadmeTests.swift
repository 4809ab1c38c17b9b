import Foundation
import Testing
@testable import KioskReporting
import KioskTestSupport

/// The reference's exit-status table (docs/reference.md) is what integrators script against: it must list exactly the
/// statuses `ExitStatus` has, each with its `meaning`, in the same order.
@Suite struct ExitStatusReadmeTests {
    /// The rows of the table under "## Exit statuses", as (status, meaning) pairs.
    static func readmeRows() throws -> [(Int32, String)] {
        let root = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
            .dropLast(3).joined(separator: "/")
        let text = try String(contentsOfFile: root + "/docs/reference.md", encoding: .utf8)
        guard let start = text.range(of: "\n## Exit statuses\n") else { return [] }
        var rows: [(Int32, String)] = []
        for line in text[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") { break }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard line.hasPrefix("|"), cells.count == 2, let code = Int32(cells[0]) else { continue }
            rows.append((code, cells[1]))
        }
        return rows
    }

    @Test func readmeTableMatchesExitStatus() throws {
        let rows = try Self.readmeRows()
        #expect(rows.map(\.0) == ExitStatus.allCases.map(\.rawValue))
        for (code, meaning) in rows {
            guard let status = ExitStatus(rawValue: code) else { continue }
            #expect(meaning == status.meaning, "README row \(code)")
        }
    }
}
