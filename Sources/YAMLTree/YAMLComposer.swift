import CYAML

/// Bounds on what one document may compose to. Aliases share the node they name, so memory stays
/// that of the text, but every reader that walks the tree walks each alias again: eight lists of
/// eight aliases of each other are 8^8 nodes to walk from a few hundred bytes.
package struct YAMLLimits: Sendable {
    /// Lists and mappings open at once (a configuration nests a few dozen deep at most).
    package var depth: Int
    /// Nodes of the document with every alias expanded.
    package var expandedNodes: Int

    package init(depth: Int = 1000, expandedNodes: Int = 1 << 24) {
        self.depth = depth
        self.expandedNodes = expandedNodes
    }
}

/// Composes YAML text into one `YAMLNode` tree with libyaml's parser (its events, composed here
/// without recursion, so a deep text cannot exhaust the stack).
package enum YAMLComposer {
    /// The single document of `text`; nil for an empty stream (nothing, or only comments). More
    /// than one document, an undefined alias, a key repeated in a mapping or a bound passed is an
    /// error, as are libyaml's own.
    package static func compose(_ text: String, limits: YAMLLimits = YAMLLimits()) throws -> YAMLNode? {
        var bytes = text
        return try bytes.withUTF8 { buffer in
            let composition = Composition(text: text, limits: limits)
            defer { composition.close() }
            return try composition.document(buffer)
        }
    }
}

/// One run of libyaml's parser over one text; owns the parser and the event being read.
private final class Composition {
    private let text: String
    private let limits: YAMLLimits
    private let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
    private let event = UnsafeMutablePointer<yaml_event_t>.allocate(capacity: 1)
    private var anchors: [String: YAMLNode] = [:]
    /// Whether `event` holds an event libyaml allocated (freed before the next one is read).
    private var holding = false

    /// A list or mapping whose end event has not come yet.
    private struct Open {
        var isMapping: Bool
        var tag: String?
        var anchor: String?
        var line: Int
        var children: [YAMLNode] = []
        var expanded = 1
    }

    init(text: String, limits: YAMLLimits) {
        self.text = text
        self.limits = limits
        yaml_parser_initialize(parser)
    }

    func close() {
        if holding { yaml_event_delete(event) }
        yaml_parser_delete(parser)
        parser.deallocate()
        event.deallocate()
    }

    func document(_ buffer: UnsafeBufferPointer<UInt8>) throws -> YAMLNode? {
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(parser, buffer.baseAddress, buffer.count)
        _ = try next()  // stream start
        guard try next() != YAML_STREAM_END_EVENT else { return nil }  // else a document start
        let root = try node()
        _ = try next()  // document end
        if try next() != YAML_STREAM_END_EVENT {
            throw YAMLError.syntax(.composer, problem: "but found another document", line: line(event.pointee.start_mark),
                                   column: column(event.pointee.start_mark),
                                   context: .init(text: "expected a single document in the stream", line: 1))
        }
        return root
    }

    /// The next event's type; the event stays in `event` until the next call.
    private func next() throws -> yaml_event_type_t {
        if holding { yaml_event_delete(event) }
        holding = false
        guard yaml_parser_parse(parser, event) == 1 else { throw parserError() }
        holding = true
        return event.pointee.type
    }

    /// Reads events up to the end of one node (the first event is the next one).
    private func node() throws -> YAMLNode {
        var open: [Open] = []
        while true {
            let type = try next()
            let e = event.pointee
            var done: YAMLNode
            switch type {
            case YAML_ALIAS_EVENT:
                let name = string(e.data.alias.anchor) ?? ""
                guard let named = anchors[name] else {
                    throw YAMLError.syntax(.composer, problem: "found undefined alias", line: line(e.start_mark),
                                           column: column(e.start_mark), context: nil)
                }
                done = named
            case YAML_SCALAR_EVENT:
                let s = e.data.scalar
                let value = String(decoding: UnsafeBufferPointer(start: s.value, count: s.length), as: UTF8.self)
                // A quoted or block scalar without a tag is a string; a plain one resolves by its spelling.
                let tag = s.quoted_implicit == 1 ? YAMLScalarValues.strTag : string(s.tag)
                done = .scalar(YAMLScalar(string: value, style: YAMLScalar.Style(rawValue: Int(s.style.rawValue)) ?? .any,
                                          tag: tag, line: line(e.start_mark)))
                register(string(s.anchor), done)
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                let mapping = type == YAML_MAPPING_START_EVENT
                let start = e.data.sequence_start  // the same layout as mapping_start
                guard open.count < limits.depth else {
                    throw YAMLError.syntax(.composer, problem: "lists and mappings nested more than \(limits.depth) deep",
                                           line: line(e.start_mark), column: column(e.start_mark), context: nil)
                }
                open.append(Open(isMapping: mapping, tag: start.implicit != 0 ? nil : string(start.tag),
                                 anchor: string(start.anchor), line: line(e.start_mark)))
                continue
            case YAML_SEQUENCE_END_EVENT:
                let closed = open.removeLast()
                done = .sequence(YAMLSequence(elements: closed.children, tag: closed.tag, line: closed.line,
                                              expandedCount: closed.expanded))
                register(closed.anchor, done)
            case YAML_MAPPING_END_EVENT:
                let closed = open.removeLast()
                var pairs: [YAMLMapping.Pair] = []
                pairs.reserveCapacity(closed.children.count / 2)
                var i = 0
                while i + 1 < closed.children.count {
                    pairs.append((key: closed.children[i], value: closed.children[i + 1]))
                    i += 2
                }
                try YAMLDuplicates.check(pairs.map(\.key))
                done = .mapping(YAMLMapping(pairs: pairs, tag: closed.tag, line: closed.line, expandedCount: closed.expanded))
                register(closed.anchor, done)
            default:
                throw YAMLError.syntax(.composer, problem: "unexpected event \(type.rawValue)", line: line(e.start_mark),
                                       column: column(e.start_mark), context: nil)
            }
            guard !open.isEmpty else { return done }
            let (sum, overflowed) = open[open.count - 1].expanded.addingReportingOverflow(done.expandedCount)
            guard !overflowed, sum <= limits.expandedNodes else {
                throw YAMLError.syntax(.composer, problem: "aliases expand the document past \(limits.expandedNodes) nodes",
                                       line: line(e.start_mark), column: column(e.start_mark), context: nil)
            }
            open[open.count - 1].expanded = sum
            open[open.count - 1].children.append(done)
        }
    }

    /// An anchor names the node from its end on (a node cannot hold an alias of itself); a later
    /// anchor of the same name shadows it.
    private func register(_ anchor: String?, _ node: YAMLNode) {
        if let anchor { anchors[anchor] = node }
    }

    private func line(_ mark: yaml_mark_t) -> Int { Int(mark.line) + 1 }
    private func column(_ mark: yaml_mark_t) -> Int { Int(mark.column) + 1 }

    private func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: UnsafePointer($0)) }
    }

    private func parserError() -> YAMLError {
        let p = parser.pointee
        let problem = p.problem.map { String(cString: $0) } ?? "unknown problem"
        let context = p.context.map { YAMLError.Context(text: String(cString: $0), line: line(p.context_mark)) }
        switch p.error {
        case YAML_MEMORY_ERROR:
            return .memory
        case YAML_READER_ERROR:
            return readerError(problem: problem, byteOffset: Int(p.problem_offset), value: p.problem_value)
        case YAML_SCANNER_ERROR:
            return .syntax(.scanner, problem: problem, line: line(p.problem_mark), column: column(p.problem_mark), context: context)
        default:
            return .syntax(.parser, problem: problem, line: line(p.problem_mark), column: column(p.problem_mark), context: context)
        }
    }

    /// libyaml gives the byte offset; the place is named in characters and lines of the text.
    private func readerError(problem: String, byteOffset: Int, value: Int32) -> YAMLError {
        let utf8 = text.utf8
        guard let byte = utf8.index(utf8.startIndex, offsetBy: byteOffset, limitedBy: utf8.endIndex),
              let at = byte.samePosition(in: text) else {
            return .reader(problem: problem, offset: nil, value: value, line: nil, column: nil)
        }
        let offset = text.distance(from: text.startIndex, to: at)
        guard at < text.endIndex else { return .reader(problem: problem, offset: offset, value: value, line: nil, column: nil) }
        var line = 1
        var lineStart = text.startIndex
        var i = text.startIndex
        while i < at {
            let after = text.index(after: i)
            if text[i].isNewline { line += 1; lineStart = after }
            i = after
        }
        let column = text.utf16.distance(from: lineStart, to: at) + 1
        return .reader(problem: problem, offset: offset, value: value, line: line, column: column)
    }
}
