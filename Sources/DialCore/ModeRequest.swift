/// A mode asked for on the command line: `WxH` or `WxH@Hz`.
public struct ModeRequest: Sendable, Equatable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public var refreshHz: Double?

    public init(width: Int, height: Int, refreshHz: Double? = nil) {
        self.width = width
        self.height = height
        self.refreshHz = refreshHz
    }

    /// Parses "1024x768" or "1920x1080@60" (or "@59.94"); nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else { return nil }
        let size = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]), w > 0, h > 0 else { return nil }
        var hz: Double?
        if parts.count == 2 {
            guard let r = Double(parts[1]), r > 0, r < 1000 else { return nil }
            hz = r
        }
        self.init(width: w, height: h, refreshHz: hz)
    }

    public var description: String {
        refreshHz.map { "\(width)x\(height)@\($0)" } ?? "\(width)x\(height)"
    }
}
