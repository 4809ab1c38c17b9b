import Glibc
import LinuxSystem
import Synchronization
import Testing

/// The descriptors of this process that are ends of the pipe with inode `inode` (what
/// /proc/self/fd's links name "pipe:[inode]"): exact while other tests open and close their own.
private func pipeEnds(inode: UInt) -> Int {
    guard let dir = opendir("/proc/self/fd") else { return -1 }
    defer { closedir(dir) }
    var count = 0
    var link = [CChar](repeating: 0, count: 64)
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard Int(name) != nil else { continue }
        let n = readlink("/proc/self/fd/" + name, &link, link.count - 1)
        guard n > 0 else { continue }
        let target = String(decoding: link[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if target == "pipe:[\(inode)]" { count += 1 }
    }
    return count
}

/// The calling thread's id, from /proc/thread-self ("PID/task/TID").
private func currentThreadID() -> Int32 {
    var link = [CChar](repeating: 0, count: 64)
    let n = readlink("/proc/thread-self", &link, link.count - 1)
    guard n > 0 else { return -1 }
    let target = String(decoding: link[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return target.split(separator: "/").last.flatMap { Int32($0) } ?? -1
}

private func inode(_ fd: Int32) -> UInt {
    var st = stat()
    return fstat(fd, &st) == 0 ? UInt(st.st_ino) : 0
}

/// poll(2) on one job's descriptor for at most `ms`: its revents.
private func poll<V>(_ job: ThreadJob<V>, ms: Int32) -> Int16 {
    var fds = [job.pollDescriptor]
    _ = pollDescriptors(&fds, timeoutMS: ms)
    return fds[0].revents
}

/// A gate a job's work waits on until the test opens it.
private final class Gate: Sendable {
    let open = Mutex(false)
    let threadID = Mutex<Int32>(0)
    func wait() {
        threadID.withLock { $0 = currentThreadID() }
        while !open.withLock({ $0 }) { usleep(1_000) }
    }
}

@Suite struct ThreadJobTests {
    @Test func theValueComesBackAndThePollSeesTheHangUp() throws {
        let job = try ThreadJob.start("test", ending: .joinable) { (6 * 7, "done") }
        let revents = poll(job, ms: 5_000)
        #expect(revents & Int16(POLLHUP) != 0)
        var polled = [job.pollDescriptor]
        polled[0].revents = revents
        let value = try #require(job.finished(in: polled))
        #expect(value.0 == 42 && value.1 == "done")
        #expect(job.isDone)
        // A poll that did not report this job's descriptor hands nothing back.
        #expect(job.finished(in: [job.pollDescriptor]) == nil)
        job.join()
    }

    @Test func aJobThatNeverEndsDoesNotHoldTheCaller() throws {
        let gate = Gate()
        let started = monotonicSeconds()
        let job = try ThreadJob.start("test") { gate.wait(); return 1 }
        #expect(monotonicSeconds() - started < 1)
        // Nothing yet: no hang-up, no value, and the poll returns at its timeout.
        #expect(poll(job, ms: 50) == 0)
        #expect(job.result == nil && !job.isDone)
        // The work runs on a thread of this process's own.
        var tid: Int32 = 0
        for _ in 0..<2_000 where tid == 0 { tid = gate.threadID.withLock { $0 }; if tid == 0 { usleep(1_000) } }
        #expect(tid != 0 && tid != currentThreadID())
        #expect(access("/proc/self/task/\(tid)", F_OK) == 0)
        gate.open.withLock { $0 = true }
        #expect(poll(job, ms: 5_000) & Int16(POLLHUP) != 0)
        #expect(job.result == 1)
        // A detached thread is gone once its work ended.
        var gone = false
        for _ in 0..<2_000 where !gone { gone = access("/proc/self/task/\(tid)", F_OK) != 0; if !gone { usleep(1_000) } }
        #expect(gone, "thread \(tid) outlived its work")
    }

    @Test func noDescriptorOutlivesTheJob() throws {
        let gate = Gate()
        var job: ThreadJob<Int>? = try ThreadJob.start("test", ending: .joinable) { gate.wait(); return 1 }
        let pipe = inode(job!.pollDescriptor.fd)
        #expect(pipe != 0)
        #expect(pipeEnds(inode: pipe) == 2)
        gate.open.withLock { $0 = true }
        job!.join()
        // The thread closed its end when its work ended; the read end goes with the job.
        #expect(pipeEnds(inode: pipe) == 1)
        job = nil
        #expect(pipeEnds(inode: pipe) == 0)
    }

    @Test func aJobLetGoWhileItRunsLeaksNothingOnceItsWorkEnds() throws {
        let gate = Gate()
        var job: ThreadJob<Int>? = try ThreadJob.start("test") { gate.wait(); return 1 }
        let pipe = inode(job!.pollDescriptor.fd)
        job = nil
        #expect(pipeEnds(inode: pipe) == 1)
        gate.open.withLock { $0 = true }
        var left = 1
        for _ in 0..<2_000 where left != 0 { left = pipeEnds(inode: pipe); if left != 0 { usleep(1_000) } }
        #expect(left == 0)
    }

    @Test func theNiceValueIsTheThreadsOwn() throws {
        let mine = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        let job = try ThreadJob.start("test", nice: 10, ending: .joinable) {
            getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        }
        job.join()
        if mine <= 10 { #expect(job.result == 10) }
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == mine)
    }

    @Test func aFailedStartNamesTheCall() {
        let error = ThreadJobError(.startThread("reload worker"), code: EAGAIN)
        #expect(error.description == "Failed to start the reload worker thread: Resource temporarily unavailable")
    }
}

private func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
