/// How loud a libinput log line is (libinput_log_priority).
public enum InputLogLevel: Int, Sendable, Comparable {
    case debug = 10, info = 20, error = 30
    public static func < (a: InputLogLevel, b: InputLogLevel) -> Bool { a.rawValue < b.rawValue }
}

/// Where TouchInput's and libinput's log lines go.
public typealias InputLog = @Sendable (InputLogLevel, String) -> Void
