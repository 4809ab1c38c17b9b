import DialCore

/// The loop as its service acts on it (commands, reloads): the service's sources hand their
/// work to the loop as `LoopEvent.service`, which runs it on the loop in that turn.
extension FrameLoop: LoopControl {
    package func carryOut(_ request: LoopRequest, at time: Double) throws {
        switch request {
        case .report(let events): report(events)
        case .apply(let actions): try apply(actions, at: time)
        case .frameIfDue: try frameIfDue(at: time)
        case .repaint: try repaint(at: time)
        case .refresh: try refresh(at: time)
        case .replaceScene(let make, let previousMenu):
            // The top item on the glass now, by id: inside a ring its ring's, else the one at 12.
            let kept = dial.pose.ring.ids.first ?? dial.selectedPath?.ids.first
            replaceScene(try make(kept))
            resyncEvents(at: time, previousMenu: previousMenu)
        case .log(let line): log(line)
        case .language(let code):
            (dial as? MenuDial)?.language = code
            scene.setLanguage?(code)
            // A moving dial's next frame shows them anyway; at rest this queues one.
            try repaint(at: time)
        }
    }
}

extension FrameLoop {
    package func carryOut(reporting events: [DialEvent]) { report(events) }
}
