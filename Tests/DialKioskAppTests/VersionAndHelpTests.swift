import Glibc
import Testing
import KioskReporting
import KioskVocabulary
import KioskTestSupport

/// `dialkiosk --version` prints the one version string, which is the package's (the top entry
/// of packaging/debian/changelog); `--help` names every event the command writes.
@Suite struct VersionAndHelpTests {
    @Test func versionPrintsTheOneVersionString() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let result = runToCompletion([builtKioskPath, "--version"], outputFile: dir.path + "/out")
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output == DialKioskVersion.string + "\n", "\(result.output)")
    }

    @Test func theChangelogsVersionIsTheOneVersionString() throws {
        let changelog = try #require(readFile(repositoryRoot + "/packaging/debian/changelog"))
        // "dialkiosk (0.1.0) trixie; urgency=medium": the upstream part, before any revision.
        let first = try #require(changelog.split(separator: "\n").first)
        let open = try #require(first.firstIndex(of: "(")), close = try #require(first.firstIndex(of: ")"))
        let version = first[first.index(after: open)..<close]
        let upstream = version.split(separator: "-").first.map(String.init) ?? ""
        #expect(upstream == DialKioskVersion.string, "changelog \(version), the program \(DialKioskVersion.string)")
    }

    @Test func runsHelpListsEveryEventItWrites() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let result = runToCompletion([builtKioskPath, "run", "--help"], outputFile: dir.path + "/out")
        #expect(result.status == 0)
        // ArgumentParser wraps the text: compare words.
        let words = Set(result.output.split(whereSeparator: { " \n,:().".contains($0) }).map(String.init))
        for kind in EventVocabulary.events where kind.from.writers.contains(.run) {
            #expect(words.contains(kind.name), "run --help lacks \(kind.name)")
        }
    }
}
