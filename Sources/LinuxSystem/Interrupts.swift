extension Errno {
    /// The one place a call is retried after a signal interrupted it: runs `body` (a call that
    /// returns -1 and sets errno on failure) until it returns anything else or fails with an
    /// errno other than EINTR.
    public static func retryingInterrupts<T: FixedWidthInteger>(_ body: () -> T) -> Result<T, Errno> {
        while true {
            let result = body()
            if result != -1 { return .success(result) }
            let failure = Errno.current
            if failure != .interrupted { return .failure(failure) }
        }
    }
}
