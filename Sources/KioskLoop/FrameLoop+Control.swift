import DialCore

/// The loop as its service acts on it (commands, reloads): the service's sources hand their
/// work to the loop as `LoopEvent.service`, which runs it on the loop in that turn.
extension FrameLoop: LoopControl {
    package func replaceScene(_ new: Scene, at time: Double, previousMenu: MenuTree?) {
        replaceScene(new)
        resyncEvents(at: time, previousMenu: previousMenu)
    }
}
