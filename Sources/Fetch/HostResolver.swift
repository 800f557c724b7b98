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
        switch entry.ai_family {
        case AF_INET:
            return sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { .v4(UInt32(bigEndian: $0.pointee.sin_addr.s_addr)) }
        case AF_INET6:
            return sa.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                var address = pointer.pointee.sin6_addr
                return .v6(withUnsafeBytes(of: &address) { Array($0) })
            }
        default:
            return nil
        }
    }
}
