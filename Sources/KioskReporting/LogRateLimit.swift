/// At most one log line per `interval` for a message that an outsider can trigger at will (a
/// refused control-socket peer): the journal must not fill with them, yet the count of what was
/// held back rides along on the next line that goes out.
package struct LogRateLimit: Sendable, Equatable {
    package var interval: Double
    private var lastLogged: Double?
    private var suppressed = 0

    package init(interval: Double) { self.interval = interval }

    /// Whether a line may go out at `now`; when it may, how many were held back since the last
    /// one (then counted afresh). `now` is the loop's clock, passed in.
    package mutating func admit(now: Double) -> Int? {
        if let last = lastLogged, now - last < interval {
            suppressed += 1
            return nil
        }
        lastLogged = now
        defer { suppressed = 0 }
        return suppressed
    }

    /// Lines held back since the last one that went out (for a closing count).
    package var heldBack: Int { suppressed }

    /// " (and N more since the last line)", or nothing.
    package static func suffix(_ heldBack: Int) -> String {
        heldBack > 0 ? " (and \(heldBack) more since the last such line)" : ""
    }
}
