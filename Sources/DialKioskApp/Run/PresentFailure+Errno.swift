import DialCore
import KMSOutput

extension PresentFailure {
    /// The failure class of an error thrown by a presenter: KMSOutput classifies its own
    /// errors; anything else is `.other`.
    init(_ error: Error) {
        self = (error as? DisplayError)?.presentFailure ?? .other
    }
}
