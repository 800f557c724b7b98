import Outbound

/// Where a webhook may be sent. Webhook URLs are typed by users, so a URL whose name resolves to
/// this machine, the LAN or a metadata service is refused (SSRF), by the same `OutboundPolicy` the
/// crawler uses; the connection is pinned to the addresses that were judged (see `CurlEasy.pin`).
public struct WebhookAddressPolicy: Sendable {
    public var outbound: OutboundPolicy
    public var resolver: any HostResolver

    /// `allowPrivateAddresses`: tests opt in to loopback receivers explicitly; production never does.
    public init(allowPrivateAddresses: Bool = false, resolver: any HostResolver = SystemResolver()) {
        outbound = OutboundPolicy(allowPrivateAddresses: allowPrivateAddresses)
        self.resolver = resolver
    }

    public enum Refusal: Error, Equatable, CustomStringConvertible {
        case badURL(String)
        case unresolvable(String)
        case address(String, reason: String)
        public var description: String {
            switch self {
            case .badURL(let why): "not a usable webhook URL: \(why)"
            case .unresolvable(let why): why
            case .address(let a, let reason):
                "refused address \(a): \(reason). Receivers on this machine or a private network are refused unless an admin "
                    + "allows private receivers (Settings → Channels → Private receivers, or AASA_MONITOR_ALLOW_PRIVATE_WEBHOOKS=1)"
            }
        }
    }

    /// Checks the URL's form only (scheme http/https, a host, no credentials): for validating input.
    /// Read by curl's own parser, so the host is the ASCII name curl will connect with.
    public static func parse(_ url: String) throws(Refusal) -> OutboundURL {
        let parsed: OutboundURL
        do {
            parsed = try OutboundURL(url)
        } catch {
            throw .badURL(error.reason)
        }
        guard parsed.scheme == "https" || parsed.scheme == "http" else { throw .badURL("the URL must start with https:// or http://") }
        if parsed.hasCredentials { throw .badURL("credentials in a webhook URL are not supported") }
        return parsed
    }

    /// Resolves the URL's host and judges every address it has. Blocking (DNS).
    public func target(for url: String) throws(Refusal) -> (url: OutboundURL, pin: PinnedConnection) {
        let parsed = try Self.parse(url)
        switch parsed.pin(policy: outbound, resolver: resolver) {
        case .success(let pin): return (parsed, pin)
        case .failure(.unresolvable(let why)): throw .unresolvable(why)
        case .failure(.address(let address, let range)): throw .address(address.description, reason: range)
        }
    }
}
