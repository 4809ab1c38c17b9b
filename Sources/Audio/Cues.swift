import Glibc

/// The sound cues, made in code (no sound files to install): a short click for each detent
/// crossed, a rising pair of tones on activation, a falling pair on back, and a low double
/// knock when a value dial runs into its minimum or maximum. 16-bit mono.
package enum Cue: String, Sendable, Equatable, CaseIterable {
    case detent, activate, back, stop

    /// The cue's samples at `sampleRate`, `volume` 0-1 of full scale.
    package func samples(sampleRate: Int, volume: Double) -> [Int16] {
        switch self {
        case .detent:
            // 6 ms of 2.5 kHz falling off fast: a tick, short enough for 25 a second.
            return Self.tone(hz: 2500, seconds: 0.006, decay: 600, sampleRate: sampleRate, volume: volume)
        case .activate:
            return Self.tone(hz: 660, seconds: 0.06, decay: 20, sampleRate: sampleRate, volume: volume)
                + Self.tone(hz: 990, seconds: 0.08, decay: 20, sampleRate: sampleRate, volume: volume)
        case .back:
            return Self.tone(hz: 990, seconds: 0.06, decay: 20, sampleRate: sampleRate, volume: volume)
                + Self.tone(hz: 660, seconds: 0.08, decay: 20, sampleRate: sampleRate, volume: volume)
        case .stop:
            // Two short knocks at 220 Hz: lower than every other cue, so a stop is not a detent.
            let knock = Self.tone(hz: 220, seconds: 0.04, decay: 40, sampleRate: sampleRate, volume: volume)
            return knock + [Int16](repeating: 0, count: sampleRate * 3 / 100) + knock
        }
    }

    /// Seconds from one click to the next when several play at once.
    package static let spacing = 0.05

    /// `count` times the cue, each padded with silence to `spacing` (the last one not).
    package func samples(sampleRate: Int, volume: Double, count: Int) -> [Int16] {
        let one = samples(sampleRate: sampleRate, volume: volume)
        guard count > 1 else { return one }
        let padded = one + [Int16](repeating: 0, count: max(0, Int(Self.spacing * Double(sampleRate)) - one.count))
        return Array([[Int16]](repeating: padded, count: count - 1).joined()) + one
    }

    /// A sine of `hz` for `seconds`, its amplitude falling as e^(-decay t), with 1 ms ramps at both
    /// ends so the cut does not click on its own.
    static func tone(hz: Double, seconds: Double, decay: Double, sampleRate: Int, volume: Double) -> [Int16] {
        let count = Int(seconds * Double(sampleRate))
        let ramp = max(1, sampleRate / 1000)
        let peak = 32767 * min(max(volume, 0), 1)
        return (0..<count).map { i in
            let t = Double(i) / Double(sampleRate)
            let edge = min(1, Double(min(i, count - 1 - i)) / Double(ramp))
            return Int16(peak * edge * exp(-decay * t) * sin(2 * Double.pi * hz * t))
        }
    }
}
