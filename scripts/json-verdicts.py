#!/usr/bin/env python3
"""RFC 8259 cases for KioskJSON and Python's json module's verdict on each.

Writes Tests/KioskJSONTests/Fixtures/rfc8259-verdicts.tsv (run once, commit the file), or with
--check compares the committed file with what this python3 says now and exits 1 on any change.

Python's verdict: the bytes decode as strict UTF-8, json.loads takes them with NaN/Infinity
refused (parse_constant), and the value encodes back to UTF-8 (Python keeps a lone surrogate
escape as a lone surrogate; RFC 8259 leaves it open, KioskJSON refuses it). Our expected
verdict is Python's except for cases named 'bound:', which Python takes and KioskJSON refuses
by its depth or size bound (JSONLimits.standard: 32 levels, 64 KiB).

Columns: python verdict, our verdict, input as hex, decoded string as hex (accepted strings
only, else '-'), name.
"""
import json
import sys
from pathlib import Path

FIXTURE = Path(__file__).resolve().parent.parent / "Tests/KioskJSONTests/Fixtures/rfc8259-verdicts.tsv"
DEPTH = 32


def cases():
    c = []

    def add(name, data):
        c.append((name, data if isinstance(data, bytes) else data.encode("utf-8")))

    # Literals and top-level scalars.
    for text in ["true", "false", "null", "0", "-0", "1", '""', '"a"', " true ", "\t\r\n null \n",
                 "tru", "nul", "True", "NULL", "nulll", "falsey", "", " ", "\n"]:
        add("literal " + repr(text), text)
    # Numbers at the edges of the grammar.
    for text in ["-1", "123", "1.5", "-1.5e10", "1e5", "1E5", "1e+5", "1e-5", "0.0", "-0.0", "0e0", "0E-0",
                 "9223372036854775807", "-9223372036854775808", "9223372036854775808", "18446744073709551616",
                 "1e308", "-1e308", "1.7976931348623157e308", "1e309", "-1e400", "1e-320", "5e-324", "1e-400",
                 "123456789012345678901234567890123456789012345678901234567890",
                 "0.000000000000000000000000000000000000000000001",
                 "01", "-01", "00", "+1", ".5", "5.", "-", "--1", "1e", "1e+", "1.e5", "0x10", "1_000", "١",
                 "NaN", "-NaN", "Infinity", "-Infinity", "inf", "nan", "1.5.5", "1e5e5", "- 1", "2 3"]:
        add("number " + repr(text), text)
    # Strings and escapes.
    for text in [r'"\""', r'"\\"', r'"\/"', r'"\b\f\n\r\t"', r'"\u0041"', r'"\u00e9"', r'"\u20AC"',
                 r'"\uFFFF"', r'"\u0000"', r'"\ud83d\udd25"', r'"\uD83D\uDD25"', r'"a\ud83d\udd25b"',
                 r'"\udbff\udfff"', r'"\ud800\udc00"',
                 r'"\ud83d"', r'"\udd25"', r'"\ud83d x"', r'"\ud83d\u0041"', r'"\ud83d\ud83d"', r'"\udd25\ud83d"',
                 r'"\ud83d\"', r'"\ud83d\\"', r'"\u12"', r'"\u12G4"', r'"\U0041"', r'"\x41"', r'"\a"', r'"\'"',
                 r'"\0"', '"\\', '"abc', '"', "'a'", '"é"', '"🔥"', '"日本"']:
        add("string " + text, text)
    # Raw control characters and other bytes in strings.
    for b in [0x00, 0x01, 0x09, 0x0A, 0x0D, 0x1F, 0x7F]:
        add("string with raw byte 0x%02X" % b, b'"a' + bytes([b]) + b'b"')
    # UTF-8: valid and invalid sequences inside a string.
    for name, seq in [("2-byte", b"\xc3\xa9"), ("3-byte", b"\xe2\x82\xac"), ("4-byte", b"\xf0\x9f\x94\xa5"),
                      ("U+10FFFF", b"\xf4\x8f\xbf\xbf"), ("U+FEFF inside", b"\xef\xbb\xbf"),
                      ("lone continuation", b"\x80"), ("0xFF", b"\xff"), ("0xFE", b"\xfe"),
                      ("overlong slash", b"\xc0\xaf"), ("overlong 3-byte", b"\xe0\x80\xaf"),
                      ("overlong 4-byte", b"\xf0\x80\x80\xaf"), ("UTF-8 surrogate", b"\xed\xa0\x80"),
                      ("above U+10FFFF", b"\xf4\x90\x80\x80"), ("0xF5 lead", b"\xf5\x80\x80\x80"),
                      ("cut 2-byte", b"\xc3"), ("cut 3-byte", b"\xe2\x82"), ("cut 4-byte", b"\xf0\x9f\x94"),
                      ("2-byte then ASCII", b"\xc3A")]:
        add("utf-8 " + name, b'"' + seq + b'"')
    add("utf-8 outside a string", b"\xc3\xa9")
    add("utf-8 cut at the end", b'"\xe2\x82')
    # BOM.
    add("BOM before a value", b"\xef\xbb\xbftrue")
    add("BOM before an object", b'\xef\xbb\xbf{"a":1}')
    add("BOM alone", b"\xef\xbb\xbf")
    # Arrays and objects.
    for text in ["[]", "[ ]", "[1]", "[1,2,3]", '[1,"a",true,null,[],{}]', "[1,]", "[,1]", "[1,,2]", "[1 2]",
                 "[", "]", "[1", "[[]", "[]]", "{}", "{ }", '{"a":1}', '{"a":1,"b":[2,{"c":null}]}', '{"a":1,}',
                 '{,"a":1}', '{"a"}', '{"a":}', '{"a" 1}', '{a:1}', "{'a':1}", '{1:1}', '{"a":1 "b":2}', '{"a":1',
                 '{"a":1}}', '{"a":1,"a":2}', '{"":0}', '{"\\u0000":0}', '{"\\ud83d":0}', '[1] ', '{"a":1}  \n',
                 "[1] x", "[1]]", "{} {}", "1 2", "true false", '"a" "b"', "[1]\x00", "[1]//c", "/*c*/[1]",
                 "[1]\x0c", "\x0c[1]", "[\xa0]".replace("\xa0", "\u00a0"), "[\u2028]"]:
        add("structure " + repr(text), text)
    # Depth around the bound.
    for depth in [1, DEPTH - 1, DEPTH]:
        add("depth %d arrays" % depth, "[" * depth + "]" * depth)
        add("depth %d objects" % depth, '{"a":' * (depth - 1) + "{}" + "}" * (depth - 1))
    for depth in [DEPTH + 1, 200]:
        add("bound: depth %d arrays" % depth, "[" * depth + "]" * depth)
        add("bound: depth %d objects" % depth, '{"a":' * (depth - 1) + "{}" + "}" * (depth - 1))
    add("depth %d unclosed" % (DEPTH + 1), "[" * (DEPTH + 1))
    add("depth 5000 unclosed", "[" * 5000)
    # Long and many.
    add("long string of escapes", '"' + "\\n\\u00e9\\ud83d\\udd25" * 500 + '"')
    add("many keys", "{" + ",".join('"k%d":%d' % (n, n) for n in range(2000)) + "}")
    add("bound: input over 64 KiB", "[" + ",".join(["1"] * 40000) + "]")
    add("YAML-exponential shape", '{"a":[' + "[" * 30 + "]" * 30 + '],"b":"' + "&a *a " * 20 + '"}')
    return c


def python_verdict(data):
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return "refuse", None

    def no_constants(name):
        raise ValueError("constant " + name)

    try:
        value = json.loads(text, parse_constant=no_constants)
    except (ValueError, RecursionError):
        return "refuse", None
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return "refuse", None
    return "accept", value


def rows():
    out = []
    for name, data in cases():
        verdict, value = python_verdict(data)
        ours = "refuse" if name.startswith("bound:") else verdict
        decoded = value.encode("utf-8").hex() if verdict == "accept" and isinstance(value, str) else "-"
        safe = name.replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")
        safe = "".join(ch if ch.isprintable() else "\\u%04x" % ord(ch) for ch in safe)
        out.append("\t".join([verdict, ours, data.hex() or "-", decoded or "-", safe]))
    return "\n".join(out) + "\n"


def main():
    text = rows()
    if sys.argv[1:] == ["--check"]:
        committed = FIXTURE.read_text(encoding="utf-8")
        if committed != text:
            old, new = committed.splitlines(), text.splitlines()
            for a, b in zip(old, new):
                if a != b:
                    print("json-verdicts: changed:\n  committed %s\n  python3   %s" % (a[:200], b[:200]))
                    break
            else:
                print("json-verdicts: %d committed rows, python3 gives %d" % (len(old), len(new)))
            sys.exit(1)
        print("json-verdicts: %d rows agree with python3 %s" % (len(text.splitlines()), sys.version.split()[0]))
        return
    FIXTURE.write_text(text, encoding="utf-8")
    print("json-verdicts: wrote %d rows to %s" % (len(text.splitlines()), FIXTURE))


if __name__ == "__main__":
    main()
