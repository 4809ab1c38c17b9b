import CMosquitto
import Glibc
import LinuxSystem

/// A libmosquitto call, as its failure message names it: "Failed to connect to broker
/// 127.0.0.1:1883: Connection refused". libmosquitto answers with its own MOSQ_ERR_* codes;
/// MOSQ_ERR_ERRNO means errno says why, every other code has its own words
/// (mosquitto_strerror), kept in `reason`.
package struct MosquittoCall: SystemCall {
    /// The words after "Failed to".
    package var operation: String
    /// mosquitto_strerror's text when the code is not MOSQ_ERR_ERRNO.
    package var reason: String?
    /// The MOSQ_ERR_* code (MOSQ_ERR_ERRNO: see the error's errno).
    package var code: Int32

    package var phrase: String { operation }

    package func message(errno: Errno) -> String? {
        reason.map { "Failed to \(operation): \($0)" }
    }
}

/// The module's one error shape for a failed libmosquitto call.
package typealias MosquittoError = CallError<MosquittoCall>

extension MosquittoError {
    /// The error for `result`, a MOSQ_ERR_* code other than success; read right after the call
    /// (MOSQ_ERR_ERRNO takes the thread's errno).
    init(_ operation: String, result: Int32) {
        if result == Int32(MOSQ_ERR_ERRNO.rawValue) {
            self.init(MosquittoCall(operation: operation, reason: nil, code: result), errno: Errno.current)
        } else {
            // libmosquitto 2.0 has no words for its keepalive code ("Unknown error.").
            let reason = result == Int32(MOSQ_ERR_KEEPALIVE.rawValue)
                ? "the broker did not answer within the keepalive time" : String(cString: mosquitto_strerror(result))
            self.init(MosquittoCall(operation: operation, reason: reason, code: result), code: Self.nearestErrno(result))
        }
    }

    /// Throws unless `result` is MOSQ_ERR_SUCCESS.
    static func check(_ operation: @autoclosure () -> String, _ result: Int32) throws(MosquittoError) {
        if result != Int32(MOSQ_ERR_SUCCESS.rawValue) { throw MosquittoError(operation(), result: result) }
    }

    /// An errno a caller can compare with for libmosquitto's own codes (the message keeps
    /// libmosquitto's words).
    static func nearestErrno(_ result: Int32) -> Int32 {
        switch result {
        case MOSQ_ERR_NOMEM.rawValue: return ENOMEM
        case MOSQ_ERR_INVAL.rawValue: return EINVAL
        case MOSQ_ERR_NO_CONN.rawValue: return ENOTCONN
        case MOSQ_ERR_CONN_REFUSED.rawValue: return ECONNREFUSED
        case MOSQ_ERR_CONN_LOST.rawValue: return ECONNRESET
        case MOSQ_ERR_TLS.rawValue, MOSQ_ERR_TLS_HANDSHAKE.rawValue: return EPROTO
        case MOSQ_ERR_AUTH.rawValue, MOSQ_ERR_ACL_DENIED.rawValue: return EACCES
        case MOSQ_ERR_EAI.rawValue, MOSQ_ERR_LOOKUP.rawValue: return EHOSTUNREACH
        case MOSQ_ERR_PAYLOAD_SIZE.rawValue, MOSQ_ERR_OVERSIZE_PACKET.rawValue: return EMSGSIZE
        case MOSQ_ERR_KEEPALIVE.rawValue, MOSQ_ERR_TIMEOUT.rawValue: return ETIMEDOUT
        default: return EPROTO
        }
    }
}
