/// One evdev node as udev describes it, copied out of the udev device at once.
package struct EvdevNode: Sendable, Equatable {
    /// The device node, e.g. "/dev/input/event5".
    package var devnode: String
    /// The kernel name, e.g. "event5".
    package var sysname: String
    /// The input device's `name` attribute ("" when udev has none).
    package var name: String
    /// The `ID_SEAT` property; nil when unset, which udev and libinput take as seat0.
    package var seat: String?
    /// The input device's `capabilities/rel` attribute: the relative axes as hexadecimal words,
    /// most significant first ("143"); nil when udev has none.
    package var relativeAxes: String?
    /// `LIBINPUT_IGNORE_DEVICE` is set: libinput leaves the device alone, and so do we.
    package var ignored: Bool

    package init(devnode: String, sysname: String, name: String = "", seat: String? = nil,
                relativeAxes: String? = nil, ignored: Bool = false) {
        self.devnode = devnode
        self.sysname = sysname
        self.name = name
        self.seat = seat
        self.relativeAxes = relativeAxes
        self.ignored = ignored
    }

    /// The seat udev puts the node on: `ID_SEAT`, else seat0.
    package var seatName: String { seat.flatMap { $0.isEmpty ? nil : $0 } ?? DialAxisPolicy.defaultSeat }
}

/// Whether DialKiosk reads an evdev node itself.
package enum DialAxisVerdict: Sendable, Equatable {
    /// A REL_DIAL device on the configured seat: opened and read beside libinput.
    case read
    /// No REL_DIAL axis (libinput's business, or nobody's).
    case notADial
    /// A REL_DIAL device udev puts on another seat (named): left to that seat's kiosk.
    case otherSeat(String)
    /// A REL_DIAL device marked `LIBINPUT_IGNORE_DEVICE`.
    case ignored
}

/// Which evdev nodes DialKiosk opens itself: those that turn on REL_DIAL, on the configured
/// seat as udev assigns it (`ID_SEAT`, unset meaning seat0), the rule libinput applies to the
/// devices it opens for `libinput_udev_assign_seat`.
package enum DialAxisPolicy {
    package static let defaultSeat = "seat0"
    /// REL_DIAL in linux/input-event-codes.h.
    static let relDial = 7

    /// The verdict for `node` when the kiosk runs on `seat`.
    package static func verdict(_ node: EvdevNode, seat: String) -> DialAxisVerdict {
        guard node.sysname.hasPrefix("event"), turnsOnDial(node.relativeAxes) else { return .notADial }
        if node.ignored { return .ignored }
        let on = node.seatName
        return on == seat ? .read : .otherSeat(on)
    }

    /// Whether a `capabilities/rel` bitmap has REL_DIAL: the kernel prints the bitmap as
    /// space-separated hexadecimal longs, the lowest bits last; REL_CNT is 16, so the axes are
    /// all in the last word.
    static func turnsOnDial(_ bitmap: String?) -> Bool {
        guard let last = bitmap?.split(separator: " ").last, let bits = UInt64(last, radix: 16) else { return false }
        return bits & (1 << UInt64(relDial)) != 0
    }
}
