import Foundation
import Testing
@testable import KioskConfiguration
import KioskTestSupport

/// The configuration reference is checked against the parser's own key lists: a key the parser
/// accepts but `dialkiosk.yaml(5)` and docs/configuration.md do not name fails here, so the
/// documents cannot fall behind the code.
@Suite struct ConfigReferenceTests {
    static let root = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        .dropLast(3).joined(separator: "/")

    /// Every documented key, as `section.key` (items as `items[].key`), from the parser's lists.
    /// A new section must be added here, or `everyRootKeyHasItsKeysListed` fails.
    static var sections: [String: [String]] {
        [
            "items[]": ConfigParser.itemKeys,
            "theme": ConfigParser.themeKeys,
            "physics": ConfigParser.physicsKeys,
            "display": ConfigParser.displayKeys,
            "input": ConfigParser.inputKeys,
            "behaviour": ConfigParser.behaviourKeys,
            "mqtt": ConfigParser.mqttKeys,
            "mqtt.tls": ConfigParser.mqttTLSKeys,
            "accessibility": ConfigParser.accessibilityKeys,
            "fleet": ConfigParser.fleetKeys,
            "power": ConfigParser.powerKeys,
            "power.schedule[]": ConfigParser.windowKeys,
            "remote": ConfigParser.remoteKeys,
            "languages[]": ConfigParser.languageEntryKeys,
            "text": ConfigParser.textKeys,
            "lock": ConfigParser.lockKeys,
            "items[].live": ConfigSection.liveKeys,
            "items[].value": ConfigSection.valueKeys,
        ]
    }

    static var documentedKeys: [String] {
        sections.flatMap { section, keys in keys.map { "\(section).\($0)" } }.sorted()
    }

    static func read(_ relative: String) throws -> String {
        try String(contentsOfFile: root + "/" + relative, encoding: .utf8)
    }

    @Test func everyRootKeyHasItsKeysListed() {
        for key in ConfigParser.rootKeys {
            let listed = Self.sections.keys.contains(key) || Self.sections.keys.contains(key + "[]")
            #expect(listed, "root key '\(key)' has no key list in ConfigReferenceTests.sections")
        }
    }

    @Test func theManPageNamesEveryKey() throws {
        // roff escapes the hyphen; the key names have none, but `\-` would hide one.
        let page = try Self.read("docs/man/dialkiosk.yaml.5").replacingOccurrences(of: "\\-", with: "-")
        let missing = Self.documentedKeys.filter { !page.contains($0) }
        #expect(missing.isEmpty, "dialkiosk.yaml(5) does not name \(missing)")
    }

    @Test func theConfigurationReferenceNamesEveryKey() throws {
        // The reference, and the documents of each section (docs/*.md).
        let docs = try FileManager.default.contentsOfDirectory(atPath: Self.root + "/docs").filter { $0.hasSuffix(".md") }.sorted()
        #expect(docs.contains("configuration.md"))
        var text = ""
        for name in docs { text += try Self.read("docs/" + name) }
        // A key is named as `section.key` in a table, or appears under its section in a YAML
        // example (`key:`), as the MQTT and speech sections document theirs.
        let missing = Self.documentedKeys.filter { key in
            let leaf = String(key.split(separator: ".").last!)
            return !text.contains("`\(key)`") && !text.contains("\(leaf):")
        }
        #expect(missing.isEmpty, "the configuration reference does not name \(missing)")
    }
}
