import Glibc
import Testing
import KioskTestSupport

/// What the built binary links, as the dynamic loader will read it (readelf -d): no Foundation
/// and no ICU, which together were the largest files a kiosk mapped after the display buffers.
@Suite struct LinkageTests {
    /// The NEEDED entries of `binary`'s dynamic section.
    static func needed(_ binary: String) -> [String] {
        let out = "/tmp/dialkiosk-linkage-\(getpid()).txt"
        defer { unlink(out) }
        let result = runToCompletion(["readelf", "-d", binary], outputFile: out)
        guard result.status == 0 else { return ["readelf failed: \(result.output)"] }
        return result.output.split(separator: "\n").compactMap { line in
            guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }

    @Test func theBinaryNamesNoFoundationNorICU() throws {
        let names = Self.needed(builtKioskPath)
        try #require(names.contains { $0.hasPrefix("libswiftCore") }, "readelf -d \(builtKioskPath): \(names)")
        let refused = names.filter {
            $0.hasPrefix("libFoundation.so") || $0.hasPrefix("libFoundationInternationalization") || $0.hasPrefix("lib_FoundationICU")
                || $0.hasPrefix("libicu")
        }
        #expect(refused.isEmpty, Comment(rawValue: "the binary links \(refused); all it names: \(names.joined(separator: " "))"))
    }
}
