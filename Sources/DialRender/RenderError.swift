/// A failure of the renderer, shaped like every error of the project: the operation that failed,
/// what it was applied to, and why ("Failed to load font 'Foo': no installed font has this
/// family"). DialKioskApp maps `kind` to an exit status.
public struct RenderError: Error, CustomStringConvertible, Equatable {
    /// What kind of thing failed, for choosing an exit status.
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

    /// What kind of thing failed.
    public var kind: Kind
    /// What was being done, e.g. "load font 'DejaVu Sans'" or "write PNG /tmp/x.png".
    public var operation: String
    /// Why it failed, e.g. the errno text or the library's message.
    public var reason: String

    /// An error of `kind`: "Failed to `operation`: `reason`".
    public init(_ kind: Kind, _ operation: String, _ reason: String) {
        self.kind = kind
        self.operation = operation
        self.reason = reason
    }

    /// The one-line message.
    public var description: String { "Failed to \(operation): \(reason)" }
}
