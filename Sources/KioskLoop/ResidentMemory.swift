import Glibc
import LinuxSystem

/// Resident set size of this process in kB, from /proc/self/statm (pages * page size).
package func residentKilobytes() -> Int {
    guard let text = ProcessMemory.procText("/proc/self/statm") else { return -1 }
    let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
    guard fields.count > 1, let pages = Int(fields[1]) else { return -1 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
}

/// The process's memory as the kernel counts it, in kB: what it allocated itself (`anonymous`,
/// RssAnon), the pages of the files it maps (`file`, RssFile: libraries, fonts, caches; shared
/// with other processes), shared memory (`shmem`, RssShmem) and the peak resident size
/// (VmHWM). `scanout` is the mapped size of the DRM mappings (/dev/dri/*): the dumb buffers the
/// kernel owns and `run` maps, not the process's own memory. Their size, not their resident
/// pages: vkms's shmem helper maps them as raw page frames (VM_PFNMAP), which smaps counts as
/// 0 kB resident however much is written.
package struct ProcessMemory: Equatable {
    package var resident = 0, anonymous = 0, file = 0, shmem = 0, peak = 0, scanout = 0

    /// Reads /proc/self/status and, when `scanout` is asked for, /proc/self/smaps (longer: a
    /// few hundred mappings); nil when /proc cannot be read.
    package static func current(scanout: Bool = false) -> ProcessMemory? {
        guard let status = procText("/proc/self/status") else { return nil }
        var m = ProcessMemory(status: status)
        if scanout, let smaps = procText("/proc/self/smaps") {
            m.scanout = Self.kilobytes("Size", in: smaps) { $0.hasPrefix("/dev/dri/") }
        }
        return m
    }

    /// The fields of a /proc/PID/status text.
    package init(status: String) {
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

    package init() {}

    /// A /proc file's whole text, read to its end: its size says 0, and a reader that trusts a
    /// first short read stops after a page of a much longer smaps (the DRM
    /// mappings come late in it, so `run --stats` said scanout_kb=0).
    package static func procText(_ path: String) -> String? {
        guard var reader = try? LineReader(path: path, regularFileOnly: false) else { return nil }
        var text = ""
        while let line = try? reader.next() {
            text += line.text
            text += "\n"
        }
        return text
    }

    /// Sum of `field` (`Size`, `Rss`, ...) over the mappings of a /proc/PID/smaps text whose path
    /// passes `include`.
    package static func kilobytes(_ field: String, in smaps: String, where include: (Substring) -> Bool) -> Int {
        var total = 0, counting = false
        let prefix = field + ":"
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            // A mapping's header: address range, permissions, offset, device, inode, [path];
            // the other lines are "Name:   value kB".
            if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
                counting = fields.count == 6 && include(fields[5].drop { $0 == " " })
            } else if counting, line.hasPrefix(prefix) {
                total += Int(line.dropFirst(prefix.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") ?? 0
            }
        }
        return total
    }

    /// `rss_kb=… anon_kb=… file_kb=… shmem_kb=… peak_kb=…` (and `scanout_kb=…` with `scanout`).
    package func text(scanout withScanout: Bool = false) -> String {
        "rss_kb=\(resident) anon_kb=\(anonymous) file_kb=\(file) shmem_kb=\(shmem) peak_kb=\(peak)"
            + (withScanout ? " scanout_kb=\(scanout)" : "")
    }
}
