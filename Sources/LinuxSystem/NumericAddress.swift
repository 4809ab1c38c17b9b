import Glibc

/// inet_pton(3): whether a host is written as an address rather than a name.
public enum NumericAddress {
    /// True for a dotted IPv4 address or an IPv6 address (no lookup is made).
    public static func isNumeric(_ host: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}
