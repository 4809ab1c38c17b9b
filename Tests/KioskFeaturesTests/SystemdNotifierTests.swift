import Glibc
import Testing
@testable import KioskReporting
@testable import KioskFeatures
import KioskTestSupport

@Suite struct SystemdNotifierTests {
    @Test func messagesReachABoundSocket() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/notify"
        let receiver = DatagramReceiver(path: path)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": path])
        #expect(notifier.isEnabled)

        try notifier.send([.ready, .status("Showing 6 items")])
        #expect(receiver.receive() == "READY=1\nSTATUS=Showing 6 items")
        try notifier.send(.watchdog)
        #expect(receiver.receive() == "WATCHDOG=1")
        try notifier.send(.reloading(monotonicMicroseconds: 123_456_789))
        #expect(receiver.receive() == "RELOADING=1\nMONOTONIC_USEC=123456789")
        try notifier.send(.stopping)
        #expect(receiver.receive() == "STOPPING=1")
        #expect(receiver.receive() == nil)
        notifier.close()
        notifier.close()
    }

    @Test func abstractNamespaceAddress() throws {
        let name = "@dialkiosk-test-\(getpid())"
        let receiver = DatagramReceiver(path: name)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": name])
        try notifier.send(.ready)
        #expect(receiver.receive() == "READY=1")
    }

    @Test func statusCannotInjectAssignments() {
        #expect(NotifyMessage.status("a\nREADY=1").lines == ["STATUS=a READY=1"])
    }

    @Test func noSocketIsANoOp() throws {
        for environment in [[:], ["NOTIFY_SOCKET": ""], ["NOTIFY_SOCKET": "relative"]] {
            let notifier = SystemdNotifier(environment: environment)
            #expect(!notifier.isEnabled)
            try notifier.send(.ready)
        }
    }

    @Test func unreachableSocketIsAnError() {
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": "/nonexistent/notify"])
        #expect(throws: SystemCallError("notify systemd at /nonexistent/notify", errno: ENOENT)) {
            try notifier.send(.ready)
        }
    }
}

@Suite struct WatchdogScheduleTests {
    @Test func pingsAtHalfTheInterval() throws {
        var schedule = try #require(WatchdogSchedule.fromEnvironment(["WATCHDOG_USEC": "10000000"], pid: 42))
        #expect(schedule.interval == 5)
        #expect(schedule.isDue(now: 100))
        schedule.pinged(at: 100)
        #expect(!schedule.isDue(now: 104.9))
        #expect(schedule.timeUntilDue(now: 103) == 2)
        #expect(schedule.isDue(now: 105))
        #expect(schedule.timeUntilDue(now: 106) == 0)
    }

    @Test func pidMustBeOurs() {
        #expect(WatchdogSchedule.fromEnvironment(["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "42"], pid: 42)?.interval == 1)
        #expect(WatchdogSchedule.fromEnvironment(["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "43"], pid: 42) == nil)
    }

    @Test func offWithoutAValidInterval() {
        #expect(WatchdogSchedule.fromEnvironment([:], pid: 1) == nil)
        #expect(WatchdogSchedule.fromEnvironment(["WATCHDOG_USEC": "0"], pid: 1) == nil)
        #expect(WatchdogSchedule.fromEnvironment(["WATCHDOG_USEC": "soon"], pid: 1) == nil)
    }
}

@Suite struct JournalLoggerTests {
    @Test func journalLinesCarryPriorities() {
        var out: [String] = []
        let logger = JournalLogger(format: LogFormat(journalPrefixes: true), minimumLevel: .info) { out.append($0) }
        logger.error("config.yaml:3: bad")
        logger.warning("two\nlines")
        logger.info("started")
        logger.debug("hidden")
        #expect(out == ["<3>config.yaml:3: bad\n", "<4>two\\nlines\n", "<6>started\n"])
    }

    /// A command's argv[0] with NUL, CR or LF must not end the journal
    /// record and start a forged one (`<0>` would be read as the emergency priority).
    @Test func controlCharactersAreEscapedSoNoRecordCanBeForged() {
        var out: [String] = []
        let logger = JournalLogger(format: LogFormat(journalPrefixes: true)) { out.append($0) }
        logger.info("item 'x': started /bin/a\u{0}<0>forged\r\n<0>again\u{1B}[2J\u{7F}\u{9B} é (pid 7)")
        #expect(out == ["<6>item 'x': started /bin/a\\x00<0>forged\\r\\n<0>again\\x1B[2J\\x7F\\x9B é (pid 7)\n"])
        #expect(LogFormat.escapingControls("tab\there") == "tab\\there")
        #expect(LogFormat.escapingControls("plain: ü ✓") == "plain: ü ✓")
    }

    @Test func plainLinesForATerminal() {
        var out: [String] = []
        let logger = JournalLogger(format: LogFormat(journalPrefixes: false), minimumLevel: .debug) { out.append($0) }
        logger.notice("n")
        logger.debug("d")
        #expect(out == ["n\n", "d\n"])
    }

    @Test func journalStreamMustMatchStderr() {
        #expect(LogFormat.isJournalStream("8:1234", device: 8, inode: 1234))
        #expect(!LogFormat.isJournalStream("8:1234", device: 8, inode: 99))
        #expect(!LogFormat.isJournalStream(nil, device: 8, inode: 1234))
        #expect(!LogFormat.isJournalStream("garbage", device: 8, inode: 1234))
    }
}
