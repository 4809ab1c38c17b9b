import DialCore

/// The one place the loop carries out what its service asked for (`LoopRequest`): the answers
/// to `LoopService.handle`, and a service source's `LoopEvent.requests`. The operations it calls
/// (`report`, `apply`, `frameIfDue`, `repaint`, `refresh`, `replaceScene`) are the module's
/// own: from outside, a request is the only way to them.
extension FrameLoop {
    /// Carries out `requests` in order, at `time`.
    package func carryOut(_ requests: [LoopRequest], at time: Double) throws {
        for request in requests { try carryOut(request, at: time) }
    }

    /// Carries out `request` in this turn, at the turn's `time`.
    package func carryOut(_ request: LoopRequest, at time: Double) throws {
        switch request {
        case .report(let events): report(events)
        case .dial(let change): move(change, at: time)
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

    /// Moves the dial as the service asked; the events go back to it as `.dialEvents`.
    private func move(_ move: DialRequest, at time: Double) {
        switch move {
        case .select(let path): report(dial.select(path: path, at: time) ?? [])
        case .command(let command): report(dial.handle(.command(command, time: time)))
        case .setShown(let shown): dial.setShown(shown, at: time)
        case .live(let items):
            (dial as? MenuDial)?.liveItems = items
        case .turnValue(let n): report((dial as? MenuDial)?.turnValue(n, at: time) ?? [])
        case .reportValue(let path, let v): report((dial as? MenuDial)?.reportValue(v, for: path, at: time) ?? [])
        case .closeValue: report((dial as? MenuDial)?.closeValue(at: time) ?? [])
        }
    }
}
