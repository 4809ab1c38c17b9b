import Testing
@testable import DialKioskApp
@testable import KioskRuntime
@testable import KioskLoop
import KioskTestSupport

/// The memory figures `bench`, `simulate --memory-every` and `run --stats` print.
@Suite struct ProcessMemoryTests {
    @Test func statusFieldsAreReadInKilobytes() {
        let status = "Name:\tdialkiosk\nVmHWM:\t   48120 kB\nVmRSS:\t   40000 kB\nRssAnon:\t   21000 kB\n"
            + "RssFile:\t   18000 kB\nRssShmem:\t    1000 kB\nThreads:\t1\n"
        let m = ProcessMemory(status: status)
        #expect(m.peak == 48120 && m.resident == 40000 && m.anonymous == 21000 && m.file == 18000 && m.shmem == 1000)
        #expect(m.text() == "rss_kb=40000 anon_kb=21000 file_kb=18000 shmem_kb=1000 peak_kb=48120")
    }

    @Test func scanoutIsTheMappedSizeOfTheDRMMappingsOnly() {
        // As vkms maps dumb buffers (VM_PFNMAP): 0 kB resident however much was written.
        let smaps = """
            55d0c0000000-55d0c0100000 r-xp 00000000 08:01 1234                       /usr/bin/dialkiosk
            Size:               1024 kB
            Rss:                 800 kB
            AnonHugePages:         0 kB
            7f0000000000-7f00007e9000 rw-s 100000000 00:05 77                        /dev/dri/card0
            Size:               8100 kB
            KernelPageSize:        4 kB
            Rss:                   0 kB
            Pss:                   0 kB
            7f0001000000-7f00017e9000 rw-s 100800000 00:05 77                        /dev/dri/card0
            Size:               8100 kB
            Rss:                4000 kB
            7f0002000000-7f0002100000 rw-p 00000000 00:00 0
            Size:                 600 kB
            Rss:                 500 kB
            FilePmdMapped:         0 kB
            """
        #expect(ProcessMemory.kilobytes("Size", in: smaps) { $0.hasPrefix("/dev/dri/") } == 16200)
        #expect(ProcessMemory.kilobytes("Rss", in: smaps) { $0.hasPrefix("/dev/dri/") } == 4000)
        #expect(ProcessMemory.kilobytes("Rss", in: smaps) { $0.hasSuffix("dialkiosk") } == 800)
    }

    @Test func thisProcessHasFigures() throws {
        let m = try #require(ProcessMemory.current(scanout: true))
        #expect(m.anonymous > 0 && m.resident >= m.anonymous && m.peak >= m.resident)
        #expect(m.scanout == 0, "a test maps no DRM buffer")
    }

    @Test func procFilesAreReadToTheirEnd() throws {
        // smaps runs to tens of kB, read by the kernel one page-sized chunk per read(2).
        let text = try #require(ProcessMemory.procText("/proc/self/smaps"))
        #expect(text.utf8.count > 8192)
        #expect(text.hasSuffix("\n") && text.contains("[stack]"))
    }

    @Test func statsGiveTheMemoryLineBeforeTheIdleLineAndAtTheEnd() {
        var s = FrameStats(refreshPeriod: 1.0 / 60, memory: { "memory rss_kb=1" })
        _ = s.frameShown(at: 0, paintSeconds: 0.001)
        let idle = s.wentIdle(at: 0.5).split(separator: "\n").map(String.init)
        #expect(idle.count == 3)
        #expect(idle[1] == "stats: memory rss_kb=1")
        #expect(idle.last?.hasPrefix("stats: idle at 0.500 s") == true)
        #expect(s.sinceStart == "stats: since start 1 flips, longest turn 0.00 ms, longest flip gap 0.00 ms, latency none, memory rss_kb=1")
    }

    @Test func benchReadsTheChildsMemoryLines() throws {
        let text = """
            memory: start rss_kb=30000 anon_kb=9000 file_kb=21000 shmem_kb=0 peak_kb=30000
            memory: frames=600 rss_kb=40000 anon_kb=19000 file_kb=21000 shmem_kb=0 peak_kb=41000
            memory: end frames=1200 rss_kb=39000 anon_kb=18000 file_kb=21000 shmem_kb=0 peak_kb=41000
            """
        let m = try BenchMemory.parse(text, frames: 1200)
        #expect(m.start.anonymous == 9000 && m.maxAnonymous == 19000 && m.end.anonymous == 18000 && m.end.peak == 41000)
    }
}
