import Foundation
import Testing
@testable import KioskSeams
@testable import DialKioskApp
@testable import KioskRuntime
import DialCore
@testable import KioskConfiguration
import KioskTestSupport

let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
let repository = URL(fileURLWithPath: repositoryRoot)

func files(in directory: URL, ending: String) -> [URL] {
    ((try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? [])
        .filter { $0.lastPathComponent.hasSuffix(ending) }
        .sorted { $0.path < $1.path }
}

@Suite struct BadConfigCorpusTests {
    /// Each file's first line says `# expect: KEY` (empty for YAML syntax errors).
    @Test func everyMalformedConfigGivesOneLocatedLineAndStatus78() throws {
        let corpus = files(in: fixtures.appendingPathComponent("bad-configs"), ending: ".yaml")
        #expect(corpus.count >= 30)
        for url in corpus {
            let text = try String(contentsOf: url, encoding: .utf8)
            let key = text.split(separator: "\n")[0].replacingOccurrences(of: "# expect: ", with: "")
            let name = url.lastPathComponent
            do {
                _ = try ConfigParser.parse(text, file: name)
                Issue.record("\(name) was accepted")
            } catch let error as ConfigError {
                let line = error.description
                #expect(!line.contains("\n"), "\(name): \(line)")
                #expect(error.exitStatus == .config)
                let located = line.range(of: "^\(name):[0-9]+: ", options: .regularExpression) != nil
                #expect(located, "\(name): \(line)")
                if !key.isEmpty { #expect(line.contains(": \(key): "), "\(name): \(line)") }
            }
        }
    }

    @Test func checkConfigExits78WithTheLineOnStandardError() throws {
        let file = fixtures.appendingPathComponent("bad-configs/color-word.yaml").path
        let r = try runDialkiosk(["check-config", file])
        #expect(r.status == 78)
        #expect(r.err == "dialkiosk: \(file):4: items[0].color: expected #RRGGBB, got 'blu'\n")
    }
}

@Suite struct FuzzBudgetTests {
    /// A fixed budget of mutated inputs per parser on every run of the suite (scripts/fuzz.sh
    /// runs libFuzzer for longer). Same seed, same inputs.
    @Test(arguments: FuzzTarget.allCases)
    func mutatedInputsKeepTheOraclesPromise(target: FuzzTarget) throws {
        let corpusFiles: [URL]
        switch target {
        case .config:
            corpusFiles = files(in: fixtures.appendingPathComponent("bad-configs"), ending: ".yaml")
                + [repository.appendingPathComponent("systemd/dialkiosk.yaml")]
        case .record:
            corpusFiles = files(in: repository.appendingPathComponent("Tests/InputRecordingTests/Fixtures"), ending: ".yml")
        case .json:
            corpusFiles = files(in: repository.appendingPathComponent("Tests/KioskJSONTests/Fixtures/seeds"), ending: ".json")
        }
        let corpus = try corpusFiles.map { [UInt8](try Data(contentsOf: $0)) }
        #expect(!corpus.isEmpty)
        for entry in corpus { #expect(FuzzOracle.check(target, entry) == nil) }
        var fuzzer = MutationFuzzer(seed: 2026, corpus: corpus)
        var findings: [String] = []
        for _ in 0..<3_000 {
            let input = fuzzer.next()
            if let finding = FuzzOracle.check(target, input) {
                findings.append("\(finding) for input \(String(decoding: input, as: UTF8.self).oneLine(limit: 300))")
                if findings.count >= 3 { break }
            }
        }
        #expect(findings.isEmpty, "\(findings.joined(separator: "\n"))")
    }

    /// Huge item counts and labels, NULs and escapes: refused with one located line,
    /// or accepted within the limits, which the oracle checks on whatever it accepts.
    @Test func hugeItemCountsAndLabelsKeepTheOraclesPromise() {
        func menu(_ count: Int, label: String = "x") -> String {
            "items:\n" + (0..<count).map { "  - id: i\($0)\n    label: \"\(label)\"\n" }.joined()
        }
        let inputs = [
            menu(64), menu(65), menu(2_000), menu(1, label: String(repeating: "é", count: 200)),
            menu(1, label: String(repeating: "x", count: 201)), menu(2, label: String(repeating: "ab ", count: 10_000)),
            menu(1, label: "a\\0b"), menu(1, label: "\\e[2J"), "items: [" + String(repeating: "{id: a}, ", count: 3_000) + "]\n",
            "items:\n  - id: a\n    command: [x" + String(repeating: ", \"\\0\"", count: 300) + "]\n",
        ]
        for text in inputs {
            #expect(FuzzOracle.check(.config, Array(text.utf8)) == nil, "\(text.prefix(80))")
        }
    }

    /// The oracle fails on an accepted configuration past the limits.
    @Test func theOracleCatchesAcceptedLimitBreaches() {
        var config = KioskConfig(items: DemoMenu.numbered(65))
        #expect(FuzzOracle.checkAccepted(config) == "accepted 65 items")
        config.items = [MenuItem(id: "a", label: String(repeating: "x", count: 201), color: RGBColor(hex: 0))]
        #expect(FuzzOracle.checkAccepted(config) == "accepted a label of 201 characters")
        config.items = [MenuItem(id: "a", label: "a", color: RGBColor(hex: 0), command: ["/bin/echo", "a\0b"])]
        #expect(FuzzOracle.checkAccepted(config)?.hasPrefix("accepted a NUL") == true)
        config.items = DemoMenu.numbered(64)
        #expect(FuzzOracle.checkAccepted(config) == nil)
    }

    @Test func theOracleCatchesAnUnlocatedError() {
        // The oracle itself must be able to fail: an error without a line is a finding.
        let error = ConfigError(file: FuzzOracle.fileName, line: nil, key: "items", message: "x")
        #expect(!error.description.hasPrefix("\(FuzzOracle.fileName):1"))
        #expect(FuzzOracle.check(.config, Array("items: []\n".utf8)) == nil)
        #expect(FuzzOracle.check(.config, Array("items:\n  - id: a\n".utf8)) == nil)
    }
}
