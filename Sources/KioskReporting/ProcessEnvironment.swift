import Glibc

/// The process environment as a dictionary (components take it as an argument so tests can
/// pass their own).
package enum ProcessEnvironment {
    package static func current() -> [String: String] {
        var result: [String: String] = [:]
        var cursor = environ
        while let entry = cursor.pointee {
            let text = String(cString: entry)
            if let eq = text.firstIndex(of: "=") {
                result[String(text[..<eq])] = String(text[text.index(after: eq)...])
            }
            cursor += 1
        }
        return result
    }
}
