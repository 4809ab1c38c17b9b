import CLinux

/// glibc malloc's settings for a process that runs for months and replaces megabytes at a
/// time (a reload or a new mode builds a new painter: a frame, a background, sprites, labels).
///
/// By default glibc raises its mmap threshold to the size of any mmapped block freed (up to
/// 32 MiB): after the first painter is dropped, the next one's frame and background (megabytes
/// each) come from the heap instead, where freeing them leaves holes RssAnon keeps counting, so
/// anonymous memory grew with every reload of a soak (docs/measurements.md has the figures).
package enum HeapPolicy {
    /// Blocks at least this large are always mapped on their own and given back when freed.
    /// glibc's starting value; setting it at all turns the dynamic raise (and the matching
    /// raise of the trim threshold) off.
    package static let mmapThreshold: Int32 = 128 << 10

    /// Heaps: one, the main one, for every thread. By default each thread that allocates
    /// while another holds the heap's lock gets a heap of its own (up to eight per core), and
    /// a heap once made stays: a reload's worker, which builds the new painter, left one of
    /// its own holding anonymous memory for the rest of the run (docs/measurements.md). The kiosk's other
    /// threads (audio, MQTT's network loop) allocate little, so they seldom wait for the lock.
    package static let heaps: Int32 = 1

    /// Applies the settings; call before the first large allocation and before any thread
    /// starts. Returns false when glibc refused one (then the defaults stay: more memory,
    /// nothing worse).
    @discardableResult
    package static func apply() -> Bool {
        let mapped = mallopt(M_MMAP_THRESHOLD, mmapThreshold) == 1
        return mallopt(M_ARENA_MAX, heaps) == 1 && mapped
    }

    /// Gives the whole free pages inside the heaps back to the kernel (`malloc_trim`), after
    /// a painter was replaced: its many small blocks (sprites, labels, glyphs) leave free
    /// pages between the new painter's that only a trim returns.
    package static func releaseFreed() {
        _ = malloc_trim(0)
    }
}
