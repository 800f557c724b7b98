import Fetch
import Foundation

/// Where a webhook may be sent. Webhook URLs are typed by users, so a URL whose name resolves to
/// this machine, the LAN or a metadata service is refused (SSRF), by the same `OutboundPolicy` the
/// crawler uses, and the connection is pinned to the address that was checked (CURLOPT_RESOLVE)
/// so a second DNS answer cannot slip past.
public struct WebhookAddressPolicy: Sendable {
    public var outbound: OutboundPolicy
    public var resolver: any HostResolver

    /// `allowPrivateAddresses`: tests opt in to loopback receivers explicitly; production never does.
    public init(allowPrivateAddresses: Bool = false, resolver: any HostResolver = SystemResolver()) {
        outbound = OutboundPolicy(allowPrivateAddresses: allowPrivateAddresses)
        self.resolver = resolver
    }

    public struct Target: Sendable, Equatable {
        public var host: String
        public var port: Int
        public var address: IPAddress
        /// "host:port:address" for CURLOPT_RESOLVE.
        public var resolveEntry: String {
            if case .v6 = address { return "\(host):\(port):[\(address)]" }
            return "\(host):\(port):\(address)"
        }
    }

    public enum Refusal: Error, Equatable, CustomStringConvertible {
        case badURL(String)
        case unresolvable(String)
        case address(String, reason: String)
        public var description: String {
            switch self {
            case .badURL(let why): "not a usable webhook URL: \(why)"
            case .unresolvable(let why): why
            case .address(let a, let reason): "refused address \(a): \(reason)"
            }
        }
    }

    /// Checks the URL's form only (scheme http/https, a host, no credentials): for validating input.
    public static func parse(_ url: String) throws(Refusal) -> (scheme: String, host: String, port: Int) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "https" || scheme == "http"
        else { throw .badURL("the URL must start with https:// or http://") }
        guard let host = components.host, !host.isEmpty else { throw .badURL("the URL has no host") }
        if components.user != nil || components.password != nil { throw .badURL("credentials in a webhook URL are not supported") }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return (scheme, bare, components.port ?? (scheme == "https" ? 443 : 80))
    }

    /// Resolves the URL's host and picks the first address the policy allows. Blocking (DNS).
    public func target(for url: String) throws(Refusal) -> Target {
        let (_, host, port) = try Self.parse(url)
        let addresses: [IPAddress]
        switch resolver.resolve(host) {
        case .success(let found): addresses = found
        case .failure(let error): throw .unresolvable(error.message)
        }
        var lastRefusal: Refusal = .unresolvable("\(host) has no address")
        for address in addresses {
            if let reason = outbound.refusal(for: address) {
                lastRefusal = .address(address.description, reason: reason)
                continue
            }
            return Target(host: host, port: port, address: address)
        }
        throw lastRefusal
    }
}
