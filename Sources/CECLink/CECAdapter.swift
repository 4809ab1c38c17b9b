import CCEC
import Glibc
import LinuxSystem

/// The CEC calls the kiosk makes, as their failure messages name them.
package enum CECCall: SystemCall {
    case open(String)
    case getCapabilities
    case getPhysicalAddress
    case getLogicalAddresses
    case setLogicalAddresses
    case setMode
    case transmit(String)
    case receive
    case dequeueEvent
    case getConnectorInfo

    package var phrase: String {
        switch self {
        case .open(let path): return "open \(path)"
        case .getCapabilities: return "read the CEC adapter's capabilities (CEC_ADAP_G_CAPS)"
        case .getPhysicalAddress: return "read the CEC physical address (CEC_ADAP_G_PHYS_ADDR)"
        case .getLogicalAddresses: return "read the CEC logical addresses (CEC_ADAP_G_LOG_ADDRS)"
        case .setLogicalAddresses: return "claim a CEC logical address (CEC_ADAP_S_LOG_ADDRS)"
        case .setMode: return "become the CEC adapter's initiator (CEC_S_MODE)"
        case .transmit(let what): return "send \(what) (CEC_TRANSMIT)"
        case .receive: return "receive a CEC message (CEC_RECEIVE)"
        case .dequeueEvent: return "read a CEC event (CEC_DQEVENT)"
        case .getConnectorInfo: return "read the CEC adapter's connector (CEC_ADAP_G_CONNECTOR_INFO)"
        }
    }

    package func message(errno: Errno) -> String? {
        switch (self, errno.rawValue) {
        case (.setMode, EBUSY), (.setLogicalAddresses, EBUSY):
            return "Failed to \(phrase): another program holds the adapter (EBUSY)"
        default: return nil
        }
    }
}

package typealias CECError = CallError<CECCall>

/// What CEC_ADAP_G_CAPS tells of an adapter.
package struct CECCapabilities: Sendable, Equatable {
    package var driver: String
    package var name: String
    package var availableLogicalAddresses: Int
    /// The CEC_CAP_* bits.
    package var flags: UInt32

    /// The driver sets the physical address itself (from the EDID); without it, userspace must.
    package var driverSetsPhysicalAddress: Bool { flags & UInt32(CEC_CAP_PHYS_ADDR) == 0 }
    package var canTransmit: Bool { flags & UInt32(CEC_CAP_TRANSMIT) != 0 }
    package var hasConnectorInfo: Bool { flags & UInt32(CEC_CAP_CONNECTOR_INFO) != 0 }
}

/// A received message or the result of one of our transmits (CEC_RECEIVE).
package struct CECReceived: Sendable, Equatable {
    /// Nonzero for the result of our transmit (the sequence CEC_TRANSMIT gave it).
    package var sequence: UInt32
    /// The CEC_TX_STATUS_* bits (0 for a message another device sent).
    package var txStatus: UInt8
    /// The CEC_RX_STATUS_* bits.
    package var rxStatus: UInt8
    /// The message: for a transmit that waited for a reply and got it, the reply.
    package var message: CECMessage?

    package var isTransmitResult: Bool { sequence != 0 && txStatus != 0 }
    package var acknowledged: Bool { txStatus & UInt8(CEC_TX_STATUS_OK) != 0 }
    package var replyTimedOut: Bool { rxStatus & UInt8(CEC_RX_STATUS_TIMEOUT) != 0 }
    package var featureAborted: Bool { rxStatus & UInt8(CEC_RX_STATUS_FEATURE_ABORT) != 0 }
    package var replyReceived: Bool { rxStatus & UInt8(CEC_RX_STATUS_OK) != 0 }
}

/// An adapter event (CEC_DQEVENT).
package enum CECEvent: Sendable, Equatable {
    /// The physical address or the claimed logical addresses changed (also the state at open).
    case stateChange(physicalAddress: CECPhysicalAddress, logicalAddressMask: UInt16)
    /// The kernel's queue overflowed and dropped received messages.
    case lostMessages(Int)
    case other(UInt32)
}

/// One open /dev/cecN, non-blocking: every call returns at once; results and received
/// messages come back through `receive` (POLLIN), adapter changes through `dequeueEvent`
/// (POLLPRI). The one owner of the descriptor.
package final class CECAdapter {
    package let path: String
    private let fd: FileDescriptor

    /// open(2) of `path` read-write, non-blocking.
    package init(path: String) throws(CECError) {
        switch FileDescriptor.open(path, flags: O_RDWR | O_NONBLOCK | O_CLOEXEC) {
        case .success(let opened): fd = opened
        case .failure(let e): throw CECError(.open(path), errno: e)
        }
        self.path = path
    }

    /// The descriptor to poll for POLLIN (messages) and POLLPRI (events).
    package var pollDescriptor: Int32 { fd.rawValue }

    package func close() { fd.close() }

    private func ioctl(_ call: CECCall, _ request: UInt, _ argument: UnsafeMutableRawPointer) throws(CECError) {
        _ = try CECError.retrying(call) { ccec_ioctl(fd.rawValue, request, argument) }
    }

    /// CEC_ADAP_G_CAPS.
    package func capabilities() throws(CECError) -> CECCapabilities {
        var caps = cec_caps()
        try ioctl(.getCapabilities, ccec_adap_g_caps(), &caps)
        return CECCapabilities(driver: Self.text(caps.driver), name: Self.text(caps.name),
                               availableLogicalAddresses: Int(caps.available_log_addrs), flags: caps.capabilities)
    }

    /// CEC_ADAP_G_PHYS_ADDR: f.f.f.f while nothing is connected (no hot-plug).
    package func physicalAddress() throws(CECError) -> CECPhysicalAddress {
        var address: UInt16 = 0
        try ioctl(.getPhysicalAddress, ccec_adap_g_phys_addr(), &address)
        return CECPhysicalAddress(address)
    }

    /// CEC_ADAP_G_LOG_ADDRS: the logical addresses claimed (empty: unconfigured) and how many
    /// were asked for (nonzero: some program configured the adapter, perhaps still claiming).
    package func logicalAddresses() throws(CECError) -> (claimed: [UInt8], requested: Int) {
        var addresses = cec_log_addrs()
        try ioctl(.getLogicalAddresses, ccec_adap_g_log_addrs(), &addresses)
        let count = Int(addresses.num_log_addrs)
        let all = withUnsafeBytes(of: addresses.log_addr) { Array($0.prefix(count)) }
        return (all.filter { $0 != UInt8(CEC_LOG_ADDR_INVALID) }, count)
    }

    /// CEC_S_MODE: this descriptor the only initiator (EBUSY when another program is), and a
    /// follower, so that messages to us (the TV's Standby, its questions) reach `receive`.
    package func becomeExclusiveInitiator() throws(CECError) {
        var mode = UInt32(CEC_MODE_EXCL_INITIATOR) | UInt32(CEC_MODE_FOLLOWER)
        try ioctl(.setMode, ccec_s_mode(), &mode)
    }

    /// CEC_ADAP_S_LOG_ADDRS for one playback device named `osdName` (at most 14 bytes). On a
    /// non-blocking descriptor the kernel claims in the background; a state-change event tells.
    package func claimPlayback(osdName: String) throws(CECError) {
        var addresses = cec_log_addrs()
        addresses.cec_version = UInt8(CEC_OP_CEC_VERSION_2_0)
        addresses.num_log_addrs = 1
        addresses.vendor_id = UInt32(CEC_VENDOR_ID_NONE)
        withUnsafeMutableBytes(of: &addresses.osd_name) { raw in
            for (i, byte) in osdName.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
        withUnsafeMutableBytes(of: &addresses.primary_device_type) { $0[0] = UInt8(CEC_OP_PRIM_DEVTYPE_PLAYBACK) }
        withUnsafeMutableBytes(of: &addresses.log_addr_type) { $0[0] = UInt8(CEC_LOG_ADDR_TYPE_PLAYBACK) }
        withUnsafeMutableBytes(of: &addresses.all_device_types) { $0[0] = UInt8(CEC_OP_ALL_DEVTYPE_PLAYBACK) }
        try ioctl(.setLogicalAddresses, ccec_adap_s_log_addrs(), &addresses)
    }

    /// CEC_TRANSMIT, non-blocking: queues the message and returns its sequence number; the
    /// result (acknowledged or not, and the reply when `reply` is given) comes through `receive`.
    package func transmit(_ message: CECMessage, reply: UInt8? = nil, timeoutMilliseconds: UInt32 = 0) throws(CECError) -> UInt32 {
        var msg = cec_msg()
        let bytes = message.bytes
        msg.len = UInt32(bytes.count)
        withUnsafeMutableBytes(of: &msg.msg) { raw in
            for (i, byte) in bytes.prefix(raw.count).enumerated() { raw[i] = byte }
        }
        if let reply {
            msg.reply = reply
            msg.timeout = timeoutMilliseconds
        }
        try ioctl(.transmit("\(message)"), ccec_transmit(), &msg)
        return msg.sequence
    }

    /// CEC_RECEIVE, non-blocking: the next message or transmit result; nil when none waits.
    package func receive() throws(CECError) -> CECReceived? {
        var msg = cec_msg()
        guard ccec_ioctl(fd.rawValue, ccec_receive(), &msg) == 0 else {
            let e = errno
            if e == EAGAIN || e == EINTR { return nil }
            throw CECError(.receive, code: e)
        }
        let length = Int(min(msg.len, UInt32(CECMessage.maximumBytes)))
        let bytes = withUnsafeBytes(of: msg.msg) { Array($0.prefix(length)) }
        return CECReceived(sequence: msg.sequence, txStatus: msg.tx_status, rxStatus: msg.rx_status,
                           message: CECMessage(bytes: bytes))
    }

    /// CEC_DQEVENT, non-blocking: the next adapter event; nil when none waits.
    package func dequeueEvent() throws(CECError) -> CECEvent? {
        var event = cec_event()
        guard ccec_ioctl(fd.rawValue, ccec_dqevent(), &event) == 0 else {
            let e = errno
            if e == EAGAIN || e == EINTR { return nil }
            throw CECError(.dequeueEvent, code: e)
        }
        switch event.event {
        case UInt32(CEC_EVENT_STATE_CHANGE):
            return .stateChange(physicalAddress: CECPhysicalAddress(event.state_change.phys_addr),
                                logicalAddressMask: event.state_change.log_addr_mask)
        case UInt32(CEC_EVENT_LOST_MSGS):
            return .lostMessages(Int(event.lost_msgs.lost_msgs))
        default:
            return .other(event.event)
        }
    }

    /// CEC_ADAP_G_CONNECTOR_INFO: the DRM card number and connector id the adapter belongs to,
    /// where the driver tells (nil: it does not).
    package func drmConnector() throws(CECError) -> (card: UInt32, connectorID: UInt32)? {
        var info = cec_connector_info()
        try ioctl(.getConnectorInfo, ccec_adap_g_connector_info(), &info)
        guard info.type == UInt32(CEC_CONNECTOR_TYPE_DRM) else { return nil }
        return (info.drm.card_no, info.drm.connector_id)
    }

    /// A fixed-size C char array's text up to its first zero.
    static func text<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
