/// One node of a composed YAML document, with the line it starts on (1-based) so that every
/// value a reader refuses can be named by its place in the file. An alias is replaced by the
/// node its anchor named (sharing its storage and its line), as YAML's composition defines it.
package enum YAMLNode: Sendable {
    case scalar(YAMLScalar)
    case mapping(YAMLMapping)
    case sequence(YAMLSequence)

    /// The line the node starts on, counted from 1.
    package var line: Int {
        switch self {
        case .scalar(let scalar): return scalar.line
        case .mapping(let mapping): return mapping.line
        case .sequence(let sequence): return sequence.line
        }
    }

    package var scalar: YAMLScalar? { if case .scalar(let scalar) = self { return scalar }; return nil }
    package var mapping: YAMLMapping? { if case .mapping(let mapping) = self { return mapping }; return nil }
    package var sequence: YAMLSequence? { if case .sequence(let sequence) = self { return sequence }; return nil }

    /// The text of a scalar; nil for a list or a mapping.
    package var string: String? { scalar?.string }

    /// A plain scalar written as a YAML 1.1 integer (`12`, `-3`, `0x1F`, `0o17`, `017`, `0b101`,
    /// `1_000`, `1:30`); nil for anything else, a quoted scalar included.
    package var int: Int? { scalar.flatMap { YAMLScalarValues.integer($0) } }

    /// A plain scalar that spells null (`~`, `null`, `Null`, `NULL` or nothing).
    package var isNull: Bool {
        guard let scalar, scalar.style == .plain || scalar.style == .any else { return false }
        return YAMLScalarValues.nullSpellings.contains(scalar.string)
    }

    /// The value of the last entry of a mapping whose key is a scalar equal to `key` read as a
    /// plain scalar (so `"1"` quoted is not the key `1`); nil for lists and scalars.
    package subscript(key: String) -> YAMLNode? {
        guard let mapping else { return nil }
        let wanted = YAMLScalarValues.resolvedTag(plain: key)
        return mapping.pairs.last { pair in
            guard let scalar = pair.key.scalar else { return false }
            return scalar.string == key && scalar.resolvedTag == wanted
        }?.value
    }
}

package struct YAMLScalar: Sendable {
    /// How the scalar was written; the raw values are libyaml's `yaml_scalar_style_t`.
    package enum Style: Int, Sendable {
        case any = 0, plain, singleQuoted, doubleQuoted, literal, folded
    }

    /// The scalar's text after YAML's folding and escapes, never a number or a boolean.
    package let string: String
    package let style: Style
    /// The explicit tag (`!!str` spelled out as `tag:yaml.org,2002:str`); nil when none was written.
    package let tag: String?
    package let line: Int

    package init(string: String, style: Style, tag: String?, line: Int) {
        self.string = string
        self.style = style
        self.tag = tag
        self.line = line
    }

    /// The tag YAML 1.1's implicit resolution gives: quoted and block scalars are strings, a
    /// plain one is whatever its spelling says (`1` an int, `yes` a bool, `~` null...).
    package var resolvedTag: String {
        if let tag { return tag }
        return style == .plain || style == .any ? YAMLScalarValues.resolvedTag(plain: string) : YAMLScalarValues.strTag
    }
}

/// A mapping's entries in document order (duplicates are refused when it is composed).
package struct YAMLMapping: RandomAccessCollection, Sendable {
    package typealias Pair = (key: YAMLNode, value: YAMLNode)
    package let pairs: [Pair]
    package let tag: String?
    package let line: Int
    /// Nodes in this mapping with aliases expanded, itself included (the composer's bound).
    let expandedCount: Int

    package var startIndex: Int { pairs.startIndex }
    package var endIndex: Int { pairs.endIndex }
    package subscript(position: Int) -> Pair { pairs[position] }
}

package struct YAMLSequence: RandomAccessCollection, Sendable {
    package let elements: [YAMLNode]
    package let tag: String?
    package let line: Int
    /// Nodes in this list with aliases expanded, itself included (the composer's bound).
    let expandedCount: Int

    package var startIndex: Int { elements.startIndex }
    package var endIndex: Int { elements.endIndex }
    package subscript(position: Int) -> YAMLNode { elements[position] }
}

extension YAMLNode {
    /// Nodes under this one with aliases expanded, itself included.
    var expandedCount: Int {
        switch self {
        case .scalar: return 1
        case .mapping(let mapping): return mapping.expandedCount
        case .sequence(let sequence): return sequence.expandedCount
        }
    }
}
