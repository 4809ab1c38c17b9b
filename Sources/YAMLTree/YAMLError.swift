/// Why a text is not one YAML document, located as libyaml locates it (lines from 1).
package enum YAMLError: Error, Sendable, CustomStringConvertible {
    /// Where in libyaml (or in the composition above it) the text was refused.
    package enum Stage: String, Sendable {
        case scanner, parser, composer
    }

    /// What libyaml said about the text around the problem (`while parsing a block mapping`)
    /// and the line it started on.
    package struct Context: Sendable {
        package let text: String
        package let line: Int
    }

    /// Bad syntax at `line` (libyaml's problem text, e.g. "did not find expected key").
    case syntax(Stage, problem: String, line: Int, column: Int, context: Context?)
    /// The same key twice in one mapping: each such key once (sorted), and the line of the
    /// first one's first occurrence.
    case duplicateKeys([String], line: Int)
    /// Text libyaml cannot read (a control character, say) at `offset` characters into the
    /// text; nil when the byte it names starts no character.
    case reader(problem: String, offset: Int?, value: Int32, line: Int?, column: Int?)
    /// libyaml ran out of memory.
    case memory

    /// The problem's line, or nil when it has none.
    package var line: Int? {
        switch self {
        case .syntax(_, _, let line, _, _), .duplicateKeys(_, let line): return line
        case .reader(_, _, _, let line, _): return line
        case .memory: return nil
        }
    }

    package var description: String {
        switch self {
        case let .syntax(stage, problem, line, column, context):
            let around = context.map { "\($0.text) in line \($0.line)\n" } ?? ""
            return "\(line):\(column): error: \(stage.rawValue): \(around)\(problem)"
        case let .duplicateKeys(keys, line):
            return "\(line): duplicated key(s): " + keys.map { "'\($0)'" }.joined(separator: ", ")
        case let .reader(problem, offset, value, line, column):
            guard let line, let column else { return "\(problem) at offset: \(offset.map(String.init) ?? "nil"), value: \(value)" }
            return "\(line):\(column): error: reader: \(problem):"
        case .memory:
            return "Memory error"
        }
    }
}
