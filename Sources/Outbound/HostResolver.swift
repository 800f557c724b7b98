import Glibc

/// Turns a host name into addresses before any connection is made, so the outbound policy can
/// judge every address and the transfer can be pinned to the ones it judged.
public protocol HostResolver: Sendable {
    /// Blocking; called on one of the fetcher's resolver threads, never on the transfer loop.
    func resolve(_ name: String) -> Result<[IPAddress], ResolveError>
}

public struct ResolveError: Error, Hashable, Sendable {
    public var message: String
    public init(message: String) { self.message = message }
}

/// The system's resolver (getaddrinfo: /etc/hosts, then DNS as nsswitch.conf says).
public struct SystemResolver: HostResolver {
    public init() {}

    public func resolve(_ name: String) -> Result<[IPAddress], ResolveError> {
        if let literal = IPAddress(name) { return .success([literal]) }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(name, "443", &hints, &list)
        guard rc == 0 else {
            return .failure(ResolveError(message: "could not resolve \(name): \(String(cString: gai_strerror(rc)))"))
        }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var cursor = list
        while let entry = cursor {
            if let address = Self.address(of: entry.pointee), !addresses.contains(address) { addresses.append(address) }
            cursor = entry.pointee.ai_next
        }
        guard !addresses.isEmpty else { return .failure(ResolveError(message: "\(name) has no address")) }
        return .success(addresses)
    }

    private static func address(of entry: addrinfo) -> IPAddress? {
        guard let sa = entry.ai_addr else { return nil }
        return IPAddress(sa, family: entry.ai_family)
    }
}
