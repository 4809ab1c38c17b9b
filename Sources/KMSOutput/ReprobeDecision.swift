import KioskSeams

/// What a connector's re-probe after a udev `change` asks of the display: the pure rule,
/// on the connector as probed now.
public enum ReprobeDecision: Sendable, Equatable {
    /// Nothing to do (still plugged in at the same size, or still gone).
    case keep
    /// The connector is gone: stop presenting.
    case suspend
    /// Back at the size of the buffers: present again with mode `modeIndex` (the same mode
    /// when it is still offered).
    case resume(modeIndex: Int)
    /// Plugged in with a different size to show: a new modeset with new buffers at mode
    /// `modeIndex`, and the picture laid out again.
    case remodeset(modeIndex: Int)

    /// The decision for `connector` (as probed now) when the output shows `current` and is
    /// `suspended` by an unplug or not. The mode to show is chosen by the same rule as at
    /// start (`OutputChoice.mode`): `request` (the config's `mode:`) when the new mode list has
    /// it, otherwise the preferred mode. Its size decides: the buffers' size resumes (the
    /// current mode itself when offered), another size re-modesets.
    public static func decide(connector: ConnectorInfo, current: ModeInfo, suspended: Bool,
                              request: ModeRequest?) -> ReprobeDecision {
        guard connector.isUsable else { return suspended ? .keep : .suspend }
        let modes = connector.modes
        let target = (try? OutputChoice.mode(of: connector, request: request).get())
            ?? (try? OutputChoice.mode(of: connector, request: nil).get())
        guard let target, let targetIndex = modes.firstIndex(of: target) else { return suspended ? .keep : .suspend }
        guard target.width == current.width && target.height == current.height else {
            return .remodeset(modeIndex: targetIndex)
        }
        guard suspended else { return .keep }
        return .resume(modeIndex: modes.firstIndex(of: current) ?? targetIndex)
    }
}
