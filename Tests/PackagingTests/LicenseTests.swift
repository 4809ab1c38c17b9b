import Testing
import KioskTestSupport

/// The licence: LICENSE is the Apache License 2.0, and the package's
/// machine-readable copyright file names it for DialKiosk's own files and gives a licence for
/// every Swift package Package.swift links statically into the binary.
@Suite struct LicenseTests {
    /// The copyright file's paragraphs (separated by empty lines), each as its fields' first lines.
    static func paragraphs() throws -> [[String: String]] {
        let text = try #require(readFile(repositoryRoot + "/packaging/debian/copyright"))
        return text.split(separator: "\n\n").map { paragraph in
            var fields: [String: String] = [:]
            for line in paragraph.split(separator: "\n") where !line.hasPrefix(" ") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            return fields
        }
    }

    @Test func licenseFileIsTheApacheLicense() throws {
        let text = try #require(readFile(repositoryRoot + "/LICENSE"))
        #expect(text.contains("Apache License\n                           Version 2.0, January 2004"))
        #expect(text.contains("END OF TERMS AND CONDITIONS"))
        #expect(text.contains("APPENDIX: How to apply the Apache License to your work."))
    }

    @Test func copyrightNamesApacheForDialKiosk() throws {
        let paragraphs = try Self.paragraphs()
        #expect(paragraphs.first?["Format"] == "https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/")
        let own = try #require(paragraphs.first { $0["Files"] == "*" })
        #expect(own["License"] == "Apache-2.0")
        // A License field with no text of its own needs a stand-alone License paragraph.
        #expect(paragraphs.contains { $0["Files"] == nil && $0["License"] == "Apache-2.0" })
    }

    /// Every `.package(url: ".../NAME", ...)` of Package.swift has a `Files: NAME/*` paragraph
    /// with a licence.
    @Test func everyDependencyHasALicense() throws {
        let manifest = try #require(readFile(repositoryRoot + "/Package.swift"))
        let names = manifest.split(separator: "\n").compactMap { line -> String? in
            guard let url = line.split(separator: "url: \"").dropFirst().first?.split(separator: "\"").first else { return nil }
            return url.split(separator: "/").last.map(String.init)
        }
        #expect(names.count >= 2, "\(names)")
        let paragraphs = try Self.paragraphs()
        for name in names {
            let paragraph = paragraphs.first { $0["Files"] == "\(name)/*" }
            #expect(paragraph?["License"]?.isEmpty == false, "packaging/debian/copyright has no licence for \(name)")
        }
    }
}
