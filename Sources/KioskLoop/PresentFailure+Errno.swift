import DialCore
import KMSOutput
import KioskSeams

extension PresentFailure {
    /// The failure class of an error thrown by a presenter: KMSOutput classifies its own
    /// errors, the virtual display says what it refused as; anything else is `.other`.
    package init(_ error: Error) {
        self = (error as? DisplayError)?.presentFailure ?? (error as? VirtualDisplay.RefusedPresent)?.failure ?? .other
    }
}
