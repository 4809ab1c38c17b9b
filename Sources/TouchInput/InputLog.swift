/// How loud a libinput log line is (libinput_log_priority).
package enum InputLogLevel: Int, Sendable, Comparable {
    case debug = 10, info = 20, error = 30
    package static func < (a: InputLogLevel, b: InputLogLevel) -> Bool { a.rawValue < b.rawValue }
}

/// Where TouchInput's and libinput's log lines go. Not @Sendable: libinput calls its log handler
/// synchronously, on the thread that called into libinput (the owner of the context).
package typealias InputLog = (InputLogLevel, String) -> Void
