import DialCore

/// A seeded mutation fuzzer for machines where libFuzzer cannot link: byte flips, insertions,
/// deletions, duplications, splices of two corpus entries and YAML tokens, reproducible by seed.
package struct MutationFuzzer {
    private var rng: SplitMix64
    private let corpus: [[UInt8]]
    private static let tokens: [String] = [
        ":", ": ", "- ", "-", "[", "]", "{", "}", ",", "\n", "\n  ", "#", "&a ", "*a", "!!int ", "!!str ",
        "\t", "\"", "'", "~", "null", "1e309", "-1e309", ".nan", ".inf", "0x1F", "#FFFFFF", "#GG0000",
        "items:", "- id: x\n", "color: ", "command: [", "physics:", "decay: ", "rotation: ", "devices:",
        "events:", "- evdev:", "absinfo:", "53: [0, 4095, 0, 0, 0]", "- [0, 0, 3, 57, 1]", "\u{FEFF}", "é", "\u{0}",
        "? ", "|\n", ">\n", "---\n", "...\n", "%YAML 1.2\n", "<<: *a\n",
        "\\0", "\\e", "\\u0085", "\"\\0\"", "label: \"", "- [0, 0, 3, 53, 9223372036854775807]",
        "53: [-9223372036854775808, 9223372036854775807, 0, 0, 0]", "- [99999999999, 0, 0, 0, 0]", "\r\n",
    ]

    package init(seed: UInt64, corpus: [[UInt8]]) {
        rng = SplitMix64(seed: seed)
        self.corpus = corpus.isEmpty ? [[]] : corpus
    }

    /// The next input: a corpus entry with one to four mutations.
    package mutating func next() -> [UInt8] {
        var bytes = corpus.randomElement(using: &rng)!
        for _ in 0..<Int.random(in: 1...4, using: &rng) { mutate(&bytes) }
        return bytes.count > 65_536 ? Array(bytes.prefix(65_536)) : bytes
    }

    private mutating func position(_ bytes: [UInt8]) -> Int { Int.random(in: 0...bytes.count, using: &rng) }

    private mutating func mutate(_ bytes: inout [UInt8]) {
        switch Int.random(in: 0..<8, using: &rng) {
        case 7 where !bytes.isEmpty:
            // A region repeated up to 200 times (at most 8 KiB more): item lists, labels and event
            // lists past every limit, at a size the seeded budget parses quickly.
            let a = Int.random(in: 0..<bytes.count, using: &rng)
            let b = min(bytes.count, a + Int.random(in: 1...96, using: &rng))
            let copies = Array(repeatElement(bytes[a..<b], count: Int.random(in: 2...200, using: &rng)).joined())
            bytes.insert(contentsOf: copies.prefix(8_192), at: b)
        case 0 where !bytes.isEmpty:
            let i = Int.random(in: 0..<bytes.count, using: &rng)
            bytes[i] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
        case 1:
            bytes.insert(UInt8.random(in: 0...255, using: &rng), at: position(bytes))
        case 2 where !bytes.isEmpty:
            let a = Int.random(in: 0..<bytes.count, using: &rng)
            let b = min(bytes.count, a + Int.random(in: 1...32, using: &rng))
            bytes.removeSubrange(a..<b)
        case 3 where !bytes.isEmpty:
            let a = Int.random(in: 0..<bytes.count, using: &rng)
            let b = min(bytes.count, a + Int.random(in: 1...64, using: &rng))
            bytes.insert(contentsOf: bytes[a..<b], at: position(bytes))
        case 4:
            let other = corpus.randomElement(using: &rng)!
            guard !other.isEmpty else { return }
            let a = Int.random(in: 0..<other.count, using: &rng)
            let b = min(other.count, a + Int.random(in: 1...128, using: &rng))
            bytes.insert(contentsOf: other[a..<b], at: position(bytes))
        default:
            bytes.insert(contentsOf: Array(Self.tokens.randomElement(using: &rng)!.utf8), at: position(bytes))
        }
    }
}
