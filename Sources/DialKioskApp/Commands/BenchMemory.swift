import DialCore
import KioskSeams
import KioskReporting
import KioskLoop
import LinuxSystem

/// `bench`'s memory figures: the kiosk's own process, not the bench's (which holds extra frames
/// to copy into and a second painter for the spin). A child `dialkiosk simulate --paint` runs a
/// generated gesture load of spins through the real frame loop and painter for `frames` frames
/// (3600: a minute at 60 Hz) and prints its memory every `every` frames; this reads those lines.
struct BenchMemory {
    /// Figures after the painter was prepared, before the first frame.
    var start: ProcessMemory
    /// The largest anonymous figure seen during the run, and the figures at its end.
    var maxAnonymous: Int
    var end: ProcessMemory
    var frames: Int

    /// Runs the child for `size` with `items` items (the demo menu when nil).
    static func measure(size: FrameSize, items: Int?, frames: Int, every: Int = 600) throws -> BenchMemory {
        let arguments = ["simulate", "--size", "\(size)", "--generate-frames", "\(frames)", "--paint", "--quiet",
                           "--memory-every", "\(every)"] + (items.map { ["--items", "\($0)"] } ?? [])
        let status: Int32, text: String
        do {
            (status, text) = try ChildProcess.run("/proc/self/exe", arguments)
        } catch {
            throw CommandFailure("bench: \(error)", status: .failure)
        }
        guard status == 0 else {
            throw CommandFailure("bench: simulate for the memory figures exited with \(status): \(text)", status: .failure)
        }
        return try parse(text, frames: frames)
    }

    /// The figures from `memory: ...` lines (`start`, `frames=N`, `end`).
    static func parse(_ text: String, frames: Int) throws -> BenchMemory {
        var samples: [ProcessMemory] = []
        for line in text.split(separator: "\n") where line.hasPrefix("memory: ") {
            var m = ProcessMemory()
            for field in line.split(separator: " ") {
                let kv = field.split(separator: "=", maxSplits: 1)
                guard kv.count == 2, let v = Int(kv[1]) else { continue }
                switch kv[0] {
                case "rss_kb": m.resident = v
                case "anon_kb": m.anonymous = v
                case "file_kb": m.file = v
                case "shmem_kb": m.shmem = v
                case "peak_kb": m.peak = v
                default: break
                }
            }
            samples.append(m)
        }
        guard let first = samples.first, let last = samples.last else {
            throw CommandFailure("bench: simulate printed no memory figures: \(text)", status: .failure)
        }
        return BenchMemory(start: first, maxAnonymous: samples.map(\.anonymous).max() ?? 0, end: last, frames: frames)
    }

    func table(_ label: String) -> String {
        func mb(_ kb: Int) -> String { fixed(Double(kb) / 1024, 1) }
        return """
              memory of the kiosk (\(label), simulate --paint, \(frames) frames of generated spins): \
            anon \(mb(start.anonymous)) MiB at start, max \(mb(maxAnonymous)), end \(mb(end.anonymous)); \
            resident peak \(mb(end.peak)) MiB (files \(mb(end.file)) MiB)
            """
    }
}
