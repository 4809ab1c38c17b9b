import Testing
@testable import YAMLTree

/// The composer over Debian's libyaml: lines, aliases, repeated keys and the bounds.
@Suite struct YAMLComposerTests {
    private func error(_ text: String, limits: YAMLLimits = YAMLLimits()) -> String {
        do {
            _ = try YAMLComposer.compose(text, limits: limits)
            return "composed"
        } catch {
            return "\(error)"
        }
    }

    @Test func nodesKeepTheirLines() throws {
        let root = try #require(try YAMLComposer.compose("# c\na:\n  - x\n  - {b: 'q'}\n"))
        #expect(root.line == 2)
        let list = try #require(root["a"]?.sequence)
        #expect(list.line == 3)
        #expect(list.map(\.line) == [3, 4])
        #expect(list[1]["b"]?.scalar?.style == .singleQuoted)
        #expect(list[0].string == "x")
    }

    @Test func anEmptyStreamIsNoDocument() throws {
        #expect(try YAMLComposer.compose("") == nil)
        #expect(try YAMLComposer.compose("# only\n\n") == nil)
        #expect(try YAMLComposer.compose("---\n")?.string == "")
    }

    @Test func anAliasIsTheAnchoredNodeWithItsLine() throws {
        let root = try #require(try YAMLComposer.compose("a: &x [1, 2]\nb: *x\n"))
        #expect(root["b"]?.sequence?.map(\.string) == ["1", "2"])
        #expect(root["b"]?.line == 1)
        #expect(error("a: *nope\n") == "1:4: error: composer: found undefined alias")
        // An anchor names its node only once the node is complete.
        #expect(error("a: &x [*x]\n") == "1:8: error: composer: found undefined alias")
    }

    @Test func repeatedKeysAreRefusedWithTheFirstLine() {
        #expect(error("b: 1\na: 1\nb: 2\na: 2\n") == "2: duplicated key(s): 'a', 'b'")
        #expect(error("a: 1\n\"a\": 2\n") == "1: duplicated key(s): 'a'")
        // The same text of two tags is two keys: the int 1 and the string "1".
        #expect(error("1: x\n\"1\": y\n") == "composed")
        #expect(error("[a]: 1\n[a]: 2\n") == "1: duplicated key(s): '<uncovertable>'")
    }

    @Test func plainScalarsResolveAsYAML11() {
        #expect(YAMLScalarValues.resolvedTag(plain: "12") == "tag:yaml.org,2002:int")
        #expect(YAMLScalarValues.resolvedTag(plain: "0x1F") == "tag:yaml.org,2002:int")
        #expect(YAMLScalarValues.resolvedTag(plain: "1.5e3") == "tag:yaml.org,2002:float")
        #expect(YAMLScalarValues.resolvedTag(plain: "Yes") == "tag:yaml.org,2002:bool")
        #expect(YAMLScalarValues.resolvedTag(plain: "~") == "tag:yaml.org,2002:null")
        #expect(YAMLScalarValues.resolvedTag(plain: "2024-01-02") == "tag:yaml.org,2002:timestamp")
        #expect(YAMLScalarValues.resolvedTag(plain: "label") == "tag:yaml.org,2002:str")
    }

    @Test func integersAsLibinputWritesThem() throws {
        let root = try #require(try YAMLComposer.compose("[12, -3, 0x1F, 017, 0b101, 1_000, '5', 1.5, 1:30]\n"))
        #expect(root.sequence?.map(\.int) == [12, -3, 31, 15, 5, 1000, nil, nil, 90])
    }

    @Test func syntaxErrorsCarryLibyamlsPlace() {
        #expect(error("a: [1\n") == "2:1: error: parser: while parsing a flow sequence in line 1\ndid not find expected ',' or ']'")
        #expect(error("a: 1\n---\nb: 2\n") == "2:1: error: composer: expected a single document in the stream in line 1\nbut found another document")
        #expect(error("a: b\u{01}\n") == "1:5: error: reader: control characters are not allowed:")
    }

    /// Eight lists, each of eight aliases of the one before: 8^8 nodes from 300 bytes.
    @Test func aliasExpansionIsBounded() {
        var text = "l0: &l0 [a, a, a, a, a, a, a, a]\n"
        for i in 1...7 { text += "l\(i): &l\(i) [" + Array(repeating: "*l\(i - 1)", count: 8).joined(separator: ", ") + "]\n" }
        #expect(error(text) == "8:45: error: composer: aliases expand the document past 16777216 nodes")
        #expect(error(text, limits: YAMLLimits(expandedNodes: 1 << 30)) == "composed")
    }

    @Test func nestingIsBoundedWithoutRecursion() {
        let deep = String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)
        // Debian's libyaml stops at 1000 levels itself and the composer's own bound is the same, so
        // which of the two speaks first depends on when libyaml reports; either refuses at level 1001.
        let refusal = error(deep)
        #expect(refusal.hasSuffix("Maximum nesting level reached, set with yaml_set_max_nest_level())")
                || refusal == "1:1001: error: composer: lists and mappings nested more than 1000 deep", "\(refusal)")
        let fine = String(repeating: "[", count: 999) + String(repeating: "]", count: 999)
        #expect(error(fine) == "composed")
        #expect(error("a: [[[[x]]]]\n", limits: YAMLLimits(depth: 4)) == "1:7: error: composer: lists and mappings nested more than 4 deep")
    }
}
