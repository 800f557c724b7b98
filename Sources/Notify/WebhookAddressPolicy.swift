import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where a webhook may be sent. Webhook URLs are typed by users, so a URL whose name resolves to
/// this machine, the LAN or a metadata service is refused (SSRF), and the connection is pinned to
/// the address that was checked (CURLOPT_RESOLVE) so a second DNS answer cannot slip past.
///
/// Minimal stand-in until Fetch's `OutboundPolicy` is on main; the ranges are the common ones.
public struct WebhookAddressPolicy: Sendable, Equatable {
    /// Tests opt in to loopback/private receivers explicitly; production never sets this.
    public var allowPrivateAddresses: Bool

    public init(allowPrivateAddresses: Bool = false) {
        self.allowPrivateAddresses = allowPrivateAddresses
    }

    public struct Target: Sendable, Equatable {
        public var host: String
        public var port: Int
        public var address: String
        /// "host:port:address" for CURLOPT_RESOLVE.
        public var resolveEntry: String {
            "\(host):\(port):\(address.contains(":") ? "[\(address)]" : address)"
        }
    }

    public enum Refusal: Error, Equatable, CustomStringConvertible {
        case badURL(String)
        case unresolvable(String)
        case address(String, reason: String)
        public var description: String {
            switch self {
            case .badURL(let why): "not a usable webhook URL: \(why)"
            case .unresolvable(let host): "cannot resolve \(host)"
            case .address(let a, let reason): "refused address \(a): \(reason)"
            }
        }
    }

    /// Checks the URL's form only (scheme http/https, a host): for validating input.
    public static func parse(_ url: String) throws(Refusal) -> (scheme: String, host: String, port: Int) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "https" || scheme == "http"
        else { throw .badURL("the URL must start with https:// or http://") }
        guard let host = components.host, !host.isEmpty else { throw .badURL("the URL has no host") }
        if components.user != nil || components.password != nil { throw .badURL("credentials in a webhook URL are not supported") }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return (scheme, bare, components.port ?? (scheme == "https" ? 443 : 80))
    }

    /// Resolves the URL's host and picks the first address the policy allows.
    public func target(for url: String) throws(Refusal) -> Target {
        let (_, host, port) = try Self.parse(url)
        let addresses = Self.resolve(host)
        guard !addresses.isEmpty else { throw .unresolvable(host) }
        var lastRefusal: Refusal = .unresolvable(host)
        for address in addresses {
            if !allowPrivateAddresses, let reason = Self.specialRange(address) {
                lastRefusal = .address(address, reason: reason)
                continue
            }
            return Target(host: host, port: port, address: address)
        }
        throw lastRefusal
    }

    static func resolve(_ host: String) -> [String] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &result) == 0, let first = result else { return [] }
        defer { freeaddrinfo(first) }
        var out: [String] = []
        var node: UnsafeMutablePointer<addrinfo>? = first
        while let n = node {
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            if n.pointee.ai_family == AF_INET, let sa = n.pointee.ai_addr {
                sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    var a = $0.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &a, &buffer, socklen_t(buffer.count))
                }
            } else if n.pointee.ai_family == AF_INET6, let sa = n.pointee.ai_addr {
                sa.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    var a = $0.pointee.sin6_addr
                    _ = inet_ntop(AF_INET6, &a, &buffer, socklen_t(buffer.count))
                }
            }
            let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !text.isEmpty && !out.contains(text) { out.append(text) }
            node = n.pointee.ai_next
        }
        return out
    }

    /// The special-purpose range a textual address falls in, or nil for public unicast.
    static func specialRange(_ address: String) -> String? {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 { return v4Range(UInt32(bigEndian: v4.s_addr)) }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return "unparseable address" }
        let b = withUnsafeBytes(of: v6) { Array($0) }
        if b.allSatisfy({ $0 == 0 }) { return "unspecified ::" }
        if b[0..<15].allSatisfy({ $0 == 0 }) && b[15] == 1 { return "loopback ::1" }
        if b[0..<10].allSatisfy({ $0 == 0 }) && b[10] == 0xFF && b[11] == 0xFF {
            let embedded = UInt32(b[12]) << 24 | UInt32(b[13]) << 16 | UInt32(b[14]) << 8 | UInt32(b[15])
            return v4Range(embedded).map { "IPv4-mapped \($0)" }
        }
        if b[0] & 0xFE == 0xFC { return "unique local fc00::/7" }
        if b[0] == 0xFE && b[1] & 0xC0 == 0x80 { return "link-local fe80::/10" }
        if b[0] == 0xFF { return "multicast ff00::/8" }
        return nil
    }

    static func v4Range(_ a: UInt32) -> String? {
        let ranges: [(UInt32, UInt32, String)] = [
            (0x0000_0000, 8, "unspecified 0.0.0.0/8"), (0x0A00_0000, 8, "private 10.0.0.0/8"),
            (0x6440_0000, 10, "CGNAT 100.64.0.0/10"), (0x7F00_0000, 8, "loopback 127.0.0.0/8"),
            (0xA9FE_0000, 16, "link-local 169.254.0.0/16"), (0xAC10_0000, 12, "private 172.16.0.0/12"),
            (0xC0A8_0000, 16, "private 192.168.0.0/16"), (0xE000_0000, 4, "multicast 224.0.0.0/4"),
            (0xF000_0000, 4, "reserved 240.0.0.0/4"),
        ]
        for (network, prefix, name) in ranges where a & (~UInt32(0) << (32 - prefix)) == network { return name }
        return nil
    }
}
