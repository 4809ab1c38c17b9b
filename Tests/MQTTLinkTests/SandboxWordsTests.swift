import CMosquitto
import Glibc
import LinuxSystem
import Testing
@testable import MQTTLink

/// A connect the shipped unit refuses says which drop-in opens the broker's address.
@Suite struct SandboxWordsTests {
    @Test func aRefusedFamilyOrAddressNamesTheMQTTDropIn() {
        let call = MosquittoCall(operation: "connect to broker 192.0.2.10:1883", reason: nil, code: Int32(MOSQ_ERR_ERRNO.rawValue))
        let family = MQTTConnection.words(MosquittoError(call, code: EAFNOSUPPORT))
        #expect(family.hasPrefix("connect to broker 192.0.2.10:1883: Address family not supported by protocol (the unit's RestrictAddressFamilies="), "\(family)")
        #expect(family.contains("/usr/share/doc/dialkiosk/examples/mqtt.conf"), "\(family)")
        let denied = MQTTConnection.words(MosquittoError(call, code: EPERM))
        #expect(denied.contains("IPAddressDeny=any") && denied.contains("IPAddressAllow="), "\(denied)")
        let refused = MQTTConnection.words(MosquittoError(call, code: ECONNREFUSED))
        #expect(!refused.contains("drop-in"), "\(refused)")
    }
}
