/// The limits of a virtual clock (`simulate`, recordings, the virtual display).
public enum VirtualTime {
    /// The longest run in simulated seconds (about 31 years): a virtual run stops here, so
    /// vblank numbers stay exact integers far below `Int.max` at any refresh rate up to 1 MHz
    /// (1e9 s x 1e6 Hz < 2^53). Readers of scripts and recordings reject times beyond it.
    public static let maximumSeconds = 1e9
}
