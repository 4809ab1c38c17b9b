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
            let new: Scene
            do {
                new = try make(kept)
            } catch {
                // Only a scene built again here (a new mode came while it was prepared) can
                // fail; the kiosk goes on with the picture it has.
                return log("reload: \(error); the picture stays the old menu's until the next reload")
            }
            replaceScene(new)
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
