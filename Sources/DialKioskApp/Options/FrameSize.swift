import ArgumentParser

/// `WxH` on the command line, e.g. `800x480`.
struct FrameSize: ExpressibleByArgument, Equatable, CustomStringConvertible {
    var width: Int
    var height: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              (16...16384).contains(w), (16...16384).contains(h) else { return nil }
        self.init(width: w, height: h)
    }

    var description: String { "\(width)x\(height)" }
    static var defaultCompletionKind: CompletionKind { .default }
}
