/// What a client that reads only the event stream knows about the menu: the ring it was told
/// is open (`opened` and `closed`) and the slot it was told is selected (`selected`). The kiosk
/// keeps one beside its dial; where the dial changes without events of its own (a start on a
/// nested default item, a reload, a new scene after a mode change), `events(toReach:selected:at:)`
/// says what to print so that every client's view equals the dial's again.
public struct EventStreamView: Equatable, Sendable {
    /// The open ring as told (the top ring before any `opened`).
    public private(set) var ring: MenuPath = .top
    /// The selected slot as told; nil before any `selected`.
    public private(set) var selected: MenuPath?

    public init() {}

    /// Folds one event in, as a client does.
    public mutating func apply(_ event: DialEvent) {
        switch event {
        case .opened(let path, _): ring = path
        case .closed(let path, _): ring = path.parent
        case .selected(_, let path, _): selected = path
        case .activated, .rest, .value: break
        }
    }

    /// The events that bring a client from this view to `ring` with `selected` at the top:
    /// `closed` for each ring left (innermost first), `opened` for each ring entered (outermost
    /// first), then `selected` when it differs (or the ring changed). `index(path)` gives the
    /// event's item index (`MenuTree.index(of:)`).
    public func events(toReach ring: MenuPath, selected: MenuPath?, at time: Double,
                       index: (MenuPath) -> Int?) -> [DialEvent] {
        var out: [DialEvent] = []
        let common = self.ring.commonPrefix(with: ring)
        for r in self.ring.prefixes.reversed() where r.depth > common.depth { out.append(.closed(path: r, time: time)) }
        for r in ring.prefixes where r.depth > common.depth { out.append(.opened(path: r, time: time)) }
        if let selected, selected != self.selected || !out.isEmpty {
            out.append(.selected(index: index(selected), path: selected, time: time))
        }
        return out
    }
}
