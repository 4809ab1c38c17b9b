/// The project's own input vocabulary. TouchInput copies every libinput event into one of these
/// at once (as wlroots does), `simulate` builds them from a JSON Lines script, and DialCore
/// consumes nothing else: no layer above TouchInput ever sees a libinput pointer.

/// What a touch point did.
public enum TouchPhase: String, Sendable, Equatable, Codable {
    case down, motion, up, cancel
    /// The end of one hardware report: every slot's change before it belongs to one instant.
    case frame
}

/// One touch sample in screen pixels (after display rotation and calibration).
public struct TouchEvent: Sendable, Equatable {
    /// The multitouch slot; only the first finger down drives the dial.
    public var slot: Int
    public var phase: TouchPhase
    public var x: Double
    public var y: Double
    /// CLOCK_MONOTONIC time of the sample, in seconds.
    public var time: Double

    public init(slot: Int = 0, phase: TouchPhase, x: Double, y: Double, time: Double) {
        self.slot = slot
        self.phase = phase
        self.x = x
        self.y = y
        self.time = time
    }
}

/// Discrete commands from keys, wheels and rotary encoders.
public enum StepCommand: Sendable, Equatable {
    /// Turn the ring by whole items; positive brings the next item (clockwise order) to the top.
    case step(Int)
    case first
    case activate
    /// To the parent ring (Escape, Backspace, a wheel's click, `back` on the socket); nothing on
    /// the top ring.
    case back
    /// For the audio side, never the dial: repeat the last utterance, or turn speech on or off
    /// (keys R and S; the service takes these before the dial sees them).
    case speech(SpeechCommand)
    /// A digit key (0-9): enters that digit on an open PIN ring; the ring and a value dial
    /// ignore it.
    case digit(Int)
}

/// What a speech key asks (`StepCommand.speech`).
public enum SpeechCommand: String, Sendable, Equatable {
    case repeatLast = "repeat"
    case toggle
}

/// What the wheel's click (`BTN_MIDDLE`) does. `back` suits a mouse beside keys; `activate` lets
/// a rotary encoder whose push reports that button do everything alone: turn, push to activate,
/// and go back through each ring's back item.
public enum WheelClick: String, CaseIterable, Sendable {
    case back
    case activate
}

/// Everything that can reach the dial from the outside.
public enum InputEvent: Sendable, Equatable {
    case touch(TouchEvent)
    case command(StepCommand, time: Double)
}

extension InputEvent {
    /// When the event happened (seconds).
    public var time: Double {
        switch self {
        case .touch(let e): return e.time
        case .command(_, let t): return t
        }
    }
}
