/// A failure of the renderer, shaped like every error of the project: the operation that failed,
/// what it was applied to, and why ("Failed to load font 'Foo': no installed font has this
/// family"). DialKioskApp maps `kind` to an exit status.
public struct RenderError: Error, CustomStringConvertible, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A font named by family or path does not exist or cannot be read.
        case fontNotFound
        /// An input file (icon, golden image) does not exist or is not a readable PNG.
        case inputFile
        /// An output file could not be written.
        case outputFile
        /// A library call failed for another reason.
        case library
    }

    public var kind: Kind
    /// What was being done, e.g. "load font 'DejaVu Sans'" or "write PNG /tmp/x.png".
    public var operation: String
    /// Why it failed, e.g. the errno text or the library's message.
    public var reason: String

    public init(_ kind: Kind, _ operation: String, _ reason: String) {
        self.kind = kind
        self.operation = operation
        self.reason = reason
    }

    public var description: String { "Failed to \(operation): \(reason)" }
}
