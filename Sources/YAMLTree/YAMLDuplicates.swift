/// A key written twice in one mapping: YAML forbids it, and a reader taking either value would
/// silently drop the other. Keys are the same when they are the same text of the same resolved
/// tag (`label` and `"label"` are one key, `1` and `"1"` are not), lists and mappings when they
/// are equal all the way down.
enum YAMLDuplicates {
    /// Node comparisons one mapping's keys may cost (aliased keys can be huge to compare).
    static let comparisonBudget = 1 << 20

    static func check(_ keys: [YAMLNode]) throws {
        guard keys.count > 1 else { return }
        // Scalars are bucketed by text (String's hash agrees with its ==), so the tags are
        // resolved only for texts written more than once.
        var byText: [String: [Int]] = [:]
        var others: [Int] = []
        for (i, key) in keys.enumerated() {
            if case .scalar(let scalar) = key { byText[scalar.string, default: []].append(i) } else { others.append(i) }
        }
        var groups: [[Int]] = []  // each group: indices of equal keys, first occurrence first
        for (_, indices) in byText where indices.count > 1 {
            var byTag: [(tag: String, indices: [Int])] = []
            for i in indices {
                let tag = keys[i].scalar?.resolvedTag ?? ""
                if let g = byTag.firstIndex(where: { $0.tag == tag }) { byTag[g].indices.append(i) } else { byTag.append((tag, [i])) }
            }
            groups += byTag.map(\.indices).filter { $0.count > 1 }
        }
        var budget = comparisonBudget
        var grouped = Set<Int>()
        for (n, i) in others.enumerated() where !grouped.contains(i) {
            var group = [i]
            for j in others[(n + 1)...] where !grouped.contains(j) {
                if try equal(keys[i], keys[j], budget: &budget, line: keys[j].line) { group.append(j); grouped.insert(j) }
            }
            if group.count > 1 { groups.append(group) }
        }
        guard !groups.isEmpty else { return }
        let firsts = groups.map { keys[$0[0]] }.sorted(by: ordered)
        throw YAMLError.duplicateKeys(firsts.map { $0.string ?? "<uncovertable>" }, line: firsts[0].line)
    }

    /// Scalars by text, lists and mappings element by element (the order messages list them in).
    private static func ordered(_ a: YAMLNode, _ b: YAMLNode) -> Bool {
        switch (a, b) {
        case let (.scalar(x), .scalar(y)): return x.string < y.string
        case let (.sequence(x), .sequence(y)): return lexicographic(Array(x), Array(y))
        case let (.mapping(x), .mapping(y)): return lexicographic(x.flatMap { [$0.key, $0.value] }, y.flatMap { [$0.key, $0.value] })
        default: return false
        }
    }

    private static func lexicographic(_ a: [YAMLNode], _ b: [YAMLNode]) -> Bool {
        for (x, y) in zip(a, b) {
            if ordered(x, y) { return true }
            if ordered(y, x) { return false }
        }
        return a.count < b.count
    }

    private static func equal(_ a: YAMLNode, _ b: YAMLNode, budget: inout Int, line: Int) throws -> Bool {
        budget -= 1
        guard budget > 0 else {
            throw YAMLError.syntax(.composer, problem: "keys too large to compare (lists or mappings used as keys)",
                                   line: line, column: 1, context: nil)
        }
        switch (a, b) {
        case let (.scalar(x), .scalar(y)):
            return x.string == y.string && x.resolvedTag == y.resolvedTag
        case let (.sequence(x), .sequence(y)):
            guard x.count == y.count, (x.tag ?? "seq") == (y.tag ?? "seq") else { return false }
            for (p, q) in zip(x, y) where try !equal(p, q, budget: &budget, line: line) { return false }
            return true
        case let (.mapping(x), .mapping(y)):
            guard x.count == y.count, (x.tag ?? "map") == (y.tag ?? "map") else { return false }
            for (p, q) in zip(x, y) {
                guard try equal(p.key, q.key, budget: &budget, line: line), try equal(p.value, q.value, budget: &budget, line: line) else {
                    return false
                }
            }
            return true
        default:
            return false
        }
    }
}
