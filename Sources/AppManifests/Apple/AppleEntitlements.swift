import Vocabulary

/// What an Apple app's entitlements say about its web associations: the domains it claims per
/// service and, when the file carries them, its app IDs.
public struct AppleEntitlements: Hashable, Sendable {
    /// Every claimed domain, in the order of the entitlement array.
    public var domains: [AssociatedDomain]
    /// `application-identifier` / `com.apple.application-identifier` (`TEAMID.bundle.id`); empty in
    /// the `.entitlements` files Xcode keeps in a project (it adds the app ID when it signs), present
    /// in a built app's (`codesign -d --entitlements`).
    public var appIDs: [AppID]
    /// `com.apple.developer.team-identifier`, when present.
    public var teamID: String?
    /// Entries read but not monitored (an SSO extension's `authsrv:`), with the reason.
    public var ignored: [IgnoredEntitlement]

    public init(domains: [AssociatedDomain], appIDs: [AppID] = [], teamID: String? = nil, ignored: [IgnoredEntitlement] = []) {
        self.domains = domains
        self.appIDs = appIDs
        self.teamID = teamID
        self.ignored = ignored
    }

    /// The domains claimed for one service.
    public func domains(for service: Service) -> [AssociatedDomain] {
        domains.filter { $0.service == service }
    }
}

/// One `<service>:<host>[?mode=…]` entry of `com.apple.developer.associated-domains`.
public struct AssociatedDomain: Hashable, Sendable {
    public var service: Service
    /// Lower case, without the `*.` of a wildcard — so it is also the host whose file devices read for
    /// the entry (a wildcard's parent domain, aasa-spec.md §2.1); ASCII unless the entry was written in Unicode
    /// (reported in `notes`: devices need the Punycode form).
    public var host: String
    /// `*.example.com`: every subdomain of `host`, not `host` itself (aasa-spec.md §13).
    public var isWildcard: Bool = false
    public var modes: AlternateModes = []
    /// The entry as written.
    public var entitlement: String
    /// Where the entry is: its line in an XML property list or JSON array; nil in a binary plist.
    public var line: Int?
    /// Warnings and infos about an accepted entry (`entitlement-alternate-mode`, …).
    public var notes: [Finding] = []

    /// The host as the entitlement names it: `*.example.com` for a wildcard.
    public var displayHost: String { isWildcard ? "*.\(host)" : host }

    /// Developer mode: devices fetch the file themselves, skipping Apple's CDN (aasa-spec.md §3.3),
    /// so only the origin matters for this entry.
    public var isOriginOnly: Bool { modes.contains(.developer) }
}

/// The alternate modes of an entitlement entry (aasa-spec.md §3.3): `?mode=developer`,
/// `?mode=managed`, `?mode=developer+managed`. Empty: the ordinary mode, through Apple's CDN.
public struct AlternateModes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let developer = AlternateModes(rawValue: 1)
    public static let managed = AlternateModes(rawValue: 2)

    /// `developer`, `managed`, `developer+managed`; nil for anything else.
    public init?(mode: String) {
        switch mode {
        case "developer": self = .developer
        case "managed": self = .managed
        case "developer+managed": self = [.developer, .managed]
        default: return nil
        }
    }

    /// The `?mode=` value, nil for the ordinary mode.
    public var mode: String? {
        switch (contains(.developer), contains(.managed)) {
        case (true, true): "developer+managed"
        case (true, false): "developer"
        case (false, true): "managed"
        case (false, false): nil
        }
    }
}

/// An entitlement entry that is valid but not monitored.
public struct IgnoredEntitlement: Hashable, Sendable {
    public var entitlement: String
    public var line: Int?
    public var reason: String
}
