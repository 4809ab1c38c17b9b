import DialCore
import KioskSeams
import YAMLTree

/// One YAML mapping of the configuration with its place in the document: typed field reads that
/// fail with the file, line and dotted key of the offending value.
package struct ConfigSection {
    package let file: String
    /// `""` for the document root, `theme`, `items[3]`...
    package let path: String
    package let node: YAMLNode
    private let entries: [(key: String, keyNode: YAMLNode, value: YAMLNode)]

    /// Accepts `node` only if it is a mapping whose keys are all in `known` (typos must not pass).
    package init(file: String, path: String, node: YAMLNode, known: [String]) throws {
        self.file = file
        self.path = path
        self.node = node
        guard case .mapping(let mapping) = node else {
            throw ConfigError(file: file, line: node.line, key: path.isEmpty ? nil : path,
                              message: "expected a mapping of keys, got \(ConfigSection.describe(node))")
        }
        var entries: [(String, YAMLNode, YAMLNode)] = []
        for (keyNode, value) in mapping {
            guard case .scalar(let scalar) = keyNode else {
                throw ConfigError(file: file, line: keyNode.line, key: path.isEmpty ? nil : path,
                                  message: "keys must be plain names, got \(ConfigSection.describe(keyNode))")
            }
            let key = scalar.string
            guard known.contains(key) else {
                var message = "unknown key"
                if let near = KeySuggestion.closest(to: key, among: known) { message += " (did you mean '\(near)'?)" }
                message += "; known keys: " + known.joined(separator: ", ")
                throw ConfigError(file: file, line: keyNode.line, key: ConfigSection.join(path, key),
                                  message: message)
            }
            entries.append((key, keyNode, value))
        }
        self.entries = entries
    }

    /// The dotted key of a field of this section.
    package func keyPath(_ key: String) -> String { ConfigSection.join(path, key) }

    /// The value node of `key`, or nil when the key is absent or explicitly null (`key: ~`).
    package func value(_ key: String) -> YAMLNode? {
        guard let value = entries.first(where: { $0.key == key })?.value else { return nil }
        // YAML's null spellings, only unquoted: `key: ""` is an empty string, not an absent key.
        if case .scalar(let scalar) = value, scalar.style == .plain || scalar.style == .any,
           ["", "~", "null", "Null", "NULL"].contains(scalar.string) {
            return nil
        }
        return value
    }

    /// The line of `key` itself (a block list's value starts on the line after it).
    package func keyLine(_ key: String) -> Int? { entries.first { $0.key == key }?.keyNode.line }

    package func error(_ key: String, _ node: YAMLNode?, _ message: String) -> ConfigError {
        ConfigError(file: file, line: (node ?? self.node).line, key: keyPath(key), message: message)
    }

    /// The text of a scalar field (any scalar: `label: 42` is the label "42"). Never one with a
    /// NUL (`"\0"` in a quoted YAML string), which C strings, argv and the journal would cut.
    package func string(_ key: String, expecting expectation: String = "a text value") throws -> String? {
        guard let node = value(key) else { return nil }
        guard case .scalar(let scalar) = node else {
            throw error(key, node, "expected \(expectation), got \(ConfigSection.describe(node))")
        }
        guard !scalar.string.unicodeScalars.contains("\0") else {
            throw error(key, node, "contains a NUL character (\\0), which no text value may")
        }
        return scalar.string
    }

    /// A non-empty single-line string without control characters, of at most `maximumBytes`
    /// bytes of UTF-8 (a path or a name; labels are limited in characters by the caller).
    package func name(_ key: String, maximumBytes: Int = ConfigLimits.nameBytes) throws -> String? {
        guard let text = try string(key) else { return nil }
        guard !text.isEmpty, !text.contains(where: { $0.isNewline }) else {
            throw error(key, value(key), "expected a non-empty single-line text, got '\(text)'")
        }
        if let control = ConfigLimits.controlCharacter(in: text) {
            throw error(key, value(key), "contains the control character U+\(hex(control)); expected plain text")
        }
        guard text.utf8.count <= maximumBytes else {
            throw error(key, value(key), "longer than \(maximumBytes) bytes (\(text.utf8.count))")
        }
        return text
    }

    /// A number inside `range` (`what` words the range for the message, e.g. "between 0 and 1").
    package func number(_ key: String, where valid: (Double) -> Bool, _ what: String) throws -> Double? {
        // `what` may already say what kind of number ("a whole number between ..."): no "a number a whole number".
        let expected = what.hasPrefix("a ") ? what : "a number \(what)"
        guard let text = try string(key, expecting: expected) else { return nil }
        guard let number = ConfigValues.number(text) else {
            throw error(key, value(key), "expected \(expected), got '\(text)'")
        }
        guard valid(number) else { throw error(key, value(key), "expected \(expected), got \(text)") }
        return number
    }

    /// Either one number (a fixed value) or `[min, max]`, each inside `bounds`.
    package func numberRange(_ key: String, within bounds: ClosedRange<Double>, _ unit: String) throws -> ClosedRange<Double>? {
        guard let node = value(key) else { return nil }
        let expectation = "a number or [min, max] between \(bounds.lowerBound) and \(bounds.upperBound) (\(unit))"
        var texts: [String] = []
        switch node {
        case .scalar(let scalar): texts = [scalar.string]
        case .sequence(let sequence) where sequence.count == 2:
            for element in sequence {
                guard case .scalar(let scalar) = element else {
                    throw error(key, node, "expected \(expectation), got a nested list or mapping")
                }
                texts.append(scalar.string)
            }
        default:
            throw error(key, node, "expected \(expectation), got \(ConfigSection.describe(node))")
        }
        let numbers = texts.compactMap(ConfigValues.number)
        let shown = texts.count == 1 ? "'\(texts[0])'" : "[" + texts.joined(separator: ", ") + "]"
        guard numbers.count == texts.count, numbers.allSatisfy(bounds.contains), numbers[0] <= numbers[numbers.count - 1] else {
            throw error(key, node, "expected \(expectation), got \(shown)")
        }
        return numbers[0]...numbers[numbers.count - 1]
    }

    package func color(_ key: String) throws -> RGBColor? {
        guard let text = try string(key, expecting: "#RRGGBB") else { return nil }
        guard let color = ConfigValues.color(text) else {
            throw error(key, value(key), "expected #RRGGBB, got '\(text)'")
        }
        return color
    }

    package func bool(_ key: String) throws -> Bool? {
        guard let text = try string(key, expecting: "true or false") else { return nil }
        guard let flag = ConfigValues.bool(text) else {
            throw error(key, value(key), "expected true or false, got '\(text)'")
        }
        return flag
    }

    /// One of a fixed set of words (an enum's raw values).
    package func choice<E: RawRepresentable & CaseIterable>(_ key: String, _ type: E.Type) throws -> E? where E.RawValue == String {
        let words = E.allCases.map(\.rawValue)
        let list = words.joined(separator: ", ")
        guard let text = try string(key, expecting: "one of \(list)") else { return nil }
        guard let choice = E(rawValue: text) else {
            throw error(key, value(key), "expected one of \(list), got '\(text)'")
        }
        return choice
    }

    /// A list of non-empty strings (an argv): never a single string, which would suggest a shell.
    package func argv(_ key: String) throws -> [String]? {
        guard let node = value(key) else { return nil }
        let expectation = "a list of strings (program and arguments; no shell)"
        guard case .sequence(let sequence) = node else {
            throw error(key, node, "expected \(expectation), got \(ConfigSection.describe(node))")
        }
        guard sequence.count <= ConfigLimits.commandArguments else {
            throw error(key, node, "at most \(ConfigLimits.commandArguments) program and arguments, got \(sequence.count)")
        }
        var argv: [String] = []
        for (i, element) in sequence.enumerated() {
            func fail(_ message: String) -> ConfigError {
                ConfigError(file: file, line: element.line, key: "\(keyPath(key))[\(i)]", message: message)
            }
            guard case .scalar(let scalar) = element else {
                throw fail("expected a string, got \(ConfigSection.describe(element))")
            }
            let text = scalar.string
            // execve(2) ends an argument at a NUL; a `sh -c` script may hold tabs and newlines,
            // but no other control character belongs in an argument, and none in the program.
            let allowed: Set<Unicode.Scalar> = i == 0 ? [] : ["\t", "\n"]
            if let control = ConfigLimits.controlCharacter(in: text, allowing: allowed) {
                throw fail("contains the control character U+\(hex(control))"
                           + (i == 0 ? "; expected a program path" : "; only tabs and newlines may stand in an argument"))
            }
            guard text.utf8.count <= ConfigLimits.argumentBytes else {
                throw fail("longer than \(ConfigLimits.argumentBytes) bytes (\(text.utf8.count))")
            }
            argv.append(text)
        }
        guard let program = argv.first, !program.isEmpty else {
            throw error(key, node, "expected \(expectation), got an empty list or an empty program name")
        }
        return argv
    }

    /// A child mapping section; nil when absent.
    package func section(_ key: String, known: [String]) throws -> ConfigSection? {
        guard let node = value(key) else { return nil }
        return try ConfigSection(file: file, path: keyPath(key), node: node, known: known)
    }

    /// A code point as messages name it: `0000`, `001B`, `0085`.
    private func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    package static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// How a node reads in a message: `'blu'` for scalars, "a list" or "a mapping" otherwise.
    package static func describe(_ node: YAMLNode) -> String {
        switch node {
        case .scalar(let scalar): return "'\(scalar.string)'"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        }
    }
}
