import Testing
@testable import KioskJSON

@Suite struct JSONReaderTests {
    func value(_ text: String) -> JSONValue? { try? JSONReader.parse(text).get() }
    func error(_ text: String) -> JSONError? {
        if case .failure(let e) = JSONReader.parse(text) { return e }
        return nil
    }
    func error(_ bytes: [UInt8]) -> JSONError? {
        if case .failure(let e) = JSONReader.parse(bytes) { return e }
        return nil
    }

    @Test func objectsKeepTheirMembersInOrderAndTheLastOfARepeatedKeyWins() throws {
        let v = try #require(value(#"{"b": 1, "a": [true, null, "x"], "b": 2}"#))
        guard case .object(let o) = v else { Issue.record("not an object"); return }
        #expect(o.keys == ["b", "a", "b"])
        #expect(o["b"]?.scalarText == "2")
        #expect(o.repeatedKey == "b")
        #expect(o["a"] == .array([.bool(true), .null, .string("x")]))
    }

    @Test func nullIsNoValueNeverTheTextNull() {
        #expect(value("null") == .null)
        #expect(value("null")?.scalarText == nil)
        #expect(value(#""null""#)?.scalarText == "null")
    }

    @Test func numbersKeepTheirTextAndExactIntegers() throws {
        let big = try #require(value("9007199254740993"))
        guard case .number(let n) = big else { Issue.record("not a number"); return }
        #expect(n.text == "9007199254740993")
        #expect(n.integer == 9_007_199_254_740_993)  // not the Double's ...992
        #expect(n.double == 9_007_199_254_740_992)
        guard case .number(let over) = try #require(value("9223372036854775808")) else { return }
        #expect(over.integer == nil)
        guard case .number(let huge) = try #require(value("1e400")) else { return }
        #expect(huge.double == .infinity)
        guard case .number(let tiny) = try #require(value("1e-320")) else { return }
        #expect(tiny.double > 0 && tiny.double.isSubnormal)
        guard case .number(let fraction) = try #require(value("-2.50")) else { return }
        #expect(fraction.integer == nil && fraction.double == -2.5 && fraction.text == "-2.50")
    }

    @Test func escapesAndSurrogatePairsDecode() {
        #expect(value(#""\ud83d\udd25 \u00e9\n\t\"\\\/""#) == .string("🔥 é\n\t\"\\/"))
        #expect(value(#""\u0000""#) == .string("\u{0}"))
    }

    @Test func errorsSayWhatAndAtWhichByte() {
        #expect(error(#"{"a" 1}"#) == JSONError(offset: 5, "expected ':' after an object key, got '1'"))
        #expect(error("[1,]") == JSONError(offset: 3, "expected a value, got ']'"))
        #expect(error("01") == JSONError(offset: 1, "a number with a leading zero"))
        #expect(error("+1") == JSONError(offset: 0, "expected a value, got '+'"))
        #expect(error(".5") == JSONError(offset: 0, "expected a value, got '.'"))
        #expect(error("NaN") == JSONError(offset: 0, "expected a value, got 'N'"))
        #expect(error("[1] x") == JSONError(offset: 4, "'x' after the value (one JSON value only)"))
        #expect(error(#""a\ud83d""#) == JSONError(offset: 2, #"a lone surrogate \uD83D (a high half without its low half)"#))
        #expect(error(#""\udd25""#) == JSONError(offset: 1, #"a lone surrogate \uDD25 (a low half without its high half)"#))
        #expect(error([0x22, 0x61, 0xFF, 0x22]) == JSONError(offset: 2, "invalid UTF-8 (byte 0xFF starts no character)"))
        #expect(error([0xEF, 0xBB, 0xBF, 0x31]) == JSONError(offset: 0, "a byte order mark (JSON text has none)"))
        #expect(error("\"a\u{1}\"") == JSONError(offset: 2, "a control character (byte 0x01) in a string; it must be escaped"))
        #expect(error("tru") == JSONError(offset: 0, "expected true, got the end"))
        #expect(error(#"{"a":1"#) == JSONError(offset: 6, "expected ',' or '}' in an object, got the end"))
        #expect(error("").map(\.description) == "byte 0: expected a value, got the end")
        // A raw byte is quoted by its value, so a message stays one line whatever it quotes.
        #expect(error("\"\\\n\"") == JSONError(offset: 1, "an unknown escape (byte 0x0A after a backslash) in a string"))
        #expect(error(#""\x""#) == JSONError(offset: 1, "an unknown escape ('x' after a backslash) in a string"))
    }

    @Test func theDepthBoundIsCheckedWhereTheLevelOpens() {
        let limits = JSONLimits(maximumBytes: 1 << 20, maximumDepth: 4)
        #expect((try? JSONReader.parse("[[[[1]]]]", limits: limits).get()) != nil)
        guard case .failure(let e) = JSONReader.parse("[[[[[1]]]]]", limits: limits) else {
            Issue.record("five levels accepted with a bound of four"); return
        }
        #expect(e == JSONError(offset: 4, "nested deeper than 4 arrays and objects"))
        // Far past the bound: refused at the bound, not after reading (or recursing) all of it.
        guard case .failure(let deep) = JSONReader.parse(String(repeating: "[", count: 100_000), limits: limits) else { return }
        #expect(deep.offset == 4)
    }

    @Test func theSizeBoundIsCheckedBeforeAnyByteIsRead() {
        let limits = JSONLimits(maximumBytes: 8, maximumDepth: 4)
        #expect((try? JSONReader.parse("[1,2,3]", limits: limits).get()) != nil)
        guard case .failure(let e) = JSONReader.parse("[1,2,3,4]", limits: limits) else {
            Issue.record("9 bytes accepted with a bound of 8"); return
        }
        #expect(e.description == "byte 8: input of 9 bytes, more than 8")
    }

    @Test func valuesAtDottedPaths() throws {
        let v = try #require(value(#"{"state": "on", "attributes": {"temperature": 21.5, "none": null}}"#))
        #expect(v.value(at: ["attributes", "temperature"])?.scalarText == "21.5")
        #expect(v.value(at: ["attributes", "none"]) == .null)
        #expect(v.value(at: ["state", "x"]) == nil)
        #expect(v.value(at: []) == v)
    }
}
