/// Where one connection may go, as the outbound policy judged it: the name curl connects with, in
/// the exact (ASCII) form curl uses, and the addresses that name resolved to.
public struct PinnedConnection: Sendable {
    /// The URL's host as curl reads it (punycode for an IDN name; an IPv6 literal without brackets).
    public var host: String
    public var port: Int
    /// Where the connection goes instead, when a connect-to rule sends this host elsewhere (tests and
    /// staging): curl then resolves this name, so the pin is keyed by it.
    public var connectTo: (host: String, port: Int)?
    /// Every address the policy judged. The connection may go to these and nowhere else.
    public var addresses: [IPAddress]

    public init(host: String, port: Int, connectTo: (host: String, port: Int)? = nil, addresses: [IPAddress]) {
        self.host = host
        self.port = port
        self.connectTo = connectTo
        self.addresses = addresses
    }

    /// The name and port curl resolves and connects to.
    public var connectedName: (host: String, port: Int) { connectTo ?? (host, port) }
}
