import Foundation

/// A check's per-location transport facts as stored with it (`checks.transport`): everything each
/// exchange showed but its body, which is stored once per distinct file with the versions. Written by
/// the check pipeline and read back as this type by the domain page, the API and the charts; the keys
/// are the ones the pipeline has always written, so every stored row reads back as it was written
/// (migration 0014 rewrote the rows written under other spellings).
public struct CheckTransport: Hashable, Sendable, Codable {
    /// Apple: `/.well-known/apple-app-site-association`, asked as Apple's CDN fetcher asks.
    public var wellKnown: TransportFacts?
    /// Apple: the legacy `/apple-app-site-association`; nil when it was not asked.
    public var root: TransportFacts?
    /// Apple's CDN copy; nil when the CDN was not asked.
    public var cdn: TransportFacts?
    /// `.well-known` again with a browser's User-Agent, to tell a bot shield from a broken site.
    public var plainUserAgent: TransportFacts?
    /// The Apple location a device reads the file from; nil when none served it.
    public var deviceLocation: TransportFacts.Location?
    /// Android: `/.well-known/assetlinks.json` as Google's fetcher asks it; nil when Android was not checked.
    public var assetLinks: TransportFacts?
    /// Android: the same URL with a browser's and Android's user agents, and each include fetched.
    public var assetLinksOtherUserAgents: [TransportFacts]?
    public var assetLinksIncludes: [TransportFacts]?

    public init(wellKnown: TransportFacts? = nil, root: TransportFacts? = nil, cdn: TransportFacts? = nil,
                plainUserAgent: TransportFacts? = nil, deviceLocation: TransportFacts.Location? = nil) {
        setApple(wellKnown: wellKnown, root: root, cdn: cdn, plainUserAgent: plainUserAgent, deviceLocation: deviceLocation)
    }

    /// Apple's exchanges, bodies stripped.
    public mutating func setApple(wellKnown: TransportFacts?, root: TransportFacts?, cdn: TransportFacts?,
                                  plainUserAgent: TransportFacts?, deviceLocation: TransportFacts.Location?) {
        self.wellKnown = wellKnown.map(Self.withoutBody)
        self.root = root.map(Self.withoutBody)
        self.cdn = cdn.map(Self.withoutBody)
        self.plainUserAgent = plainUserAgent.map(Self.withoutBody)
        self.deviceLocation = deviceLocation
    }

    /// Android's exchanges, bodies stripped like Apple's.
    public mutating func setAndroid(origin: TransportFacts, otherUserAgents: [TransportFacts], includes: [TransportFacts]) {
        assetLinks = Self.withoutBody(origin)
        assetLinksOtherUserAgents = otherUserAgents.isEmpty ? nil : otherUserAgents.map(Self.withoutBody)
        assetLinksIncludes = includes.isEmpty ? nil : includes.map(Self.withoutBody)
    }

    /// The locations a page lists, in the order a device tries them (`.well-known`, root, CDN); the
    /// browser-agent repeat is a comparison, not a location.
    public var locations: [TransportFacts] {
        [wellKnown, root, cdn].compactMap { $0 }
    }

    /// The certificate the origin presented (`.well-known`'s), for the expiry chart.
    public var originCertificateNotAfter: Date? { wellKnown?.tls?.notAfter }

    /// Bodies are not history: the file lives once in the versions table, however many checks saw it.
    static func withoutBody(_ facts: TransportFacts) -> TransportFacts {
        var copy = facts
        copy.body = []
        return copy
    }
}
