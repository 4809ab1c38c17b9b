import Foundation

/// Resident set size of this process in kB, from /proc/self/statm (pages * page size).
func residentKilobytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return -1 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return -1 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
}

/// The process's memory as the kernel counts it, in kB: what it allocated itself (`anonymous`,
/// RssAnon), the pages of the files it maps (`file`, RssFile: libraries, fonts, caches; shared
/// with other processes), shared memory (`shmem`, RssShmem) and the peak resident size
/// (VmHWM). `scanout` is the resident part of the DRM mappings (/dev/dri/*): dumb buffers the
/// kernel owns and `run` maps, counted in `file` or `shmem` by the kernel but not the process's
/// own memory (0 when nothing is mapped, and on drivers whose buffers sit in video memory).
struct ProcessMemory: Equatable {
    var resident = 0, anonymous = 0, file = 0, shmem = 0, peak = 0, scanout = 0

    /// Reads /proc/self/status and, when `scanout` is asked for, /proc/self/smaps (longer: a
    /// few hundred mappings); nil when /proc cannot be read.
    static func current(scanout: Bool = false) -> ProcessMemory? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        var m = ProcessMemory(status: status)
        if scanout, let smaps = try? String(contentsOfFile: "/proc/self/smaps", encoding: .utf8) {
            m.scanout = Self.residentKilobytes(in: smaps) { $0.hasPrefix("/dev/dri/") }
        }
        return m
    }

    /// The fields of a /proc/PID/status text.
    init(status: String) {
        for line in status.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let value = Int(parts[1].split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") ?? 0
            switch parts[0] {
            case "VmRSS": resident = value
            case "RssAnon": anonymous = value
            case "RssFile": file = value
            case "RssShmem": shmem = value
            case "VmHWM": peak = value
            default: break
            }
        }
    }

    init() {}

    /// Sum of `Rss:` over the mappings of a /proc/PID/smaps text whose path passes `include`.
    static func residentKilobytes(in smaps: String, where include: (Substring) -> Bool) -> Int {
        var total = 0, counting = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            // A mapping's header: address range, permissions, offset, device, inode, [path];
            // the other lines are "Name:   value kB".
            if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
                counting = fields.count == 6 && include(fields[5].drop { $0 == " " })
            } else if counting, line.hasPrefix("Rss:") {
                total += Int(line.dropFirst(4).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") ?? 0
            }
        }
        return total
    }

    /// `rss_kb=… anon_kb=… file_kb=… shmem_kb=… peak_kb=…` (and `scanout_kb=…` with `scanout`).
    func text(scanout withScanout: Bool = false) -> String {
        "rss_kb=\(resident) anon_kb=\(anonymous) file_kb=\(file) shmem_kb=\(shmem) peak_kb=\(peak)"
            + (withScanout ? " scanout_kb=\(scanout)" : "")
    }
}
