/// What the dial reports to the outside. `index` is the item's place among its ring's
/// configured items (nil for a ring's back item); `path` names it from the top ring down.
public enum DialEvent: Sendable, Equatable {
    /// The ring came to rest on a different item than before.
    case selected(index: Int?, path: MenuPath, time: Double)
    /// The hub was tapped (or Enter pressed, or `activate` sent) with `index` selected.
    case activated(index: Int?, path: MenuPath, time: Double)
    /// The ring came to rest (after every movement): total rotation and the item at the top.
    case rest(time: Double, rotation: Double, index: Int?)
    /// Ring `path` (of the item at `path`) came on screen.
    case opened(path: MenuPath, time: Double)
    /// Ring `path` went away.
    case closed(path: MenuPath, time: Double)
}
