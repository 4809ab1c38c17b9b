import KioskReporting

/// The rate limit of outsider-triggered log lines lives in KioskReporting so the remote view's
/// worker uses the same one; this name keeps the service's files as they are.
package typealias LogRateLimit = KioskReporting.LogRateLimit
