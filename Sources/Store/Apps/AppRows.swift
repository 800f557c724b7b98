import Foundation
import Vocabulary

extension SigningKeyRole: SQLDecodable, SQLEncodable {}

/// A domain as an app names it: the key of `domains` (ASCII host and wildcard flag) and the name
/// to register it under when it is new.
public struct AppDomainKey: Sendable, Hashable {
    public var host: String
    public var displayName: String
    public var wildcard: Bool

    public init(host: String, displayName: String, wildcard: Bool) {
        self.host = host
        self.displayName = displayName
        self.wildcard = wildcard
    }
}

/// One claim of the app: the domain, for a service, on a platform, in the entitlement's modes.
public struct AppLinkDraft: Sendable, Hashable {
    public var domain: AppDomainKey
    public var platform: Platform
    public var service: Service
    /// `?mode=developer`: devices skip Apple's CDN, so only the origin counts.
    public var developerMode: Bool
    /// `?mode=managed`: recorded and shown.
    public var managedMode: Bool
    /// The entry as the app's file wrote it.
    public var declaredAs: String

    public init(domain: AppDomainKey, platform: Platform, service: Service, developerMode: Bool = false,
                managedMode: Bool = false, declaredAs: String = "") {
        self.domain = domain
        self.platform = platform
        self.service = service
        self.developerMode = developerMode
        self.managedMode = managedMode
        self.declaredAs = declaredAs
    }
}

/// A URL that must open the app, on the domain whose file decides it.
public struct AppWatchedURLDraft: Sendable, Hashable {
    public var url: String
    public var domain: AppDomainKey
    /// The platforms the URL must open the app on (`app_watched_urls.platforms`, 0065): `android` for
    /// an AndroidManifest.xml's paths, `both` for a URL typed in; a platform not named does not judge it.
    public var platforms: WatchedPlatforms

    public init(url: String, domain: AppDomainKey, platforms: WatchedPlatforms = .both) {
        self.url = url
        self.domain = domain
        self.platforms = platforms
    }
}

public struct AppFingerprint: Sendable, Hashable, Codable {
    /// Upper-case hex octets joined by colons (`CertificateFingerprint.text`).
    public var fingerprint: String
    public var role: SigningKeyRole

    public init(fingerprint: String, role: SigningKeyRole) {
        self.fingerprint = fingerprint
        self.role = role
    }
}

/// An app as it is stored, validated by the registry (`AppRegistry`).
public struct AppDraft: Sendable, Equatable {
    public var name: String
    /// `TEAMID.bundle.id` of each Apple variant; the first is the one watched URLs must open.
    public var appleAppIDs: [String]
    public var androidPackage: String?
    public var fingerprints: [AppFingerprint]
    public var links: [AppLinkDraft]
    public var watchedURLs: [AppWatchedURLDraft]

    public init(name: String, appleAppIDs: [String] = [], androidPackage: String? = nil, fingerprints: [AppFingerprint] = [],
                links: [AppLinkDraft] = [], watchedURLs: [AppWatchedURLDraft] = []) {
        self.name = name
        self.appleAppIDs = appleAppIDs
        self.androidPackage = androidPackage
        self.fingerprints = fingerprints
        self.links = links
        self.watchedURLs = watchedURLs
    }

    /// Every domain the app names, each once, in the order first named.
    public var domains: [AppDomainKey] {
        var seen = Set<AppDomainKey>()
        return (links.map(\.domain) + watchedURLs.map(\.domain)).filter { seen.insert($0).inserted }
    }
}

public enum AppCreation: Sendable, Equatable {
    /// `newDomainIDs`: the domains this app registered (the others were registered already).
    case created(id: Int64, newDomainIDs: [Int64])
    case nameTaken(id: Int64)
}

/// An app as stored.
public struct AppRecord: Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var appleAppIDs: [String]
    public var androidPackage: String?
    public var fingerprints: [AppFingerprint]
    public var createdAt: Date

    public var platforms: [Platform] {
        (appleAppIDs.isEmpty ? [] : [.apple]) + (androidPackage == nil ? [] : [.android])
    }
}

/// One link of an app with the state of its domain, for the app page, the API and /metrics.
public struct AppLinkRecord: Sendable, RowDecodable {
    public var domainID: Int64
    public var host: String
    public var displayName: String
    public var wildcard: Bool
    public var platform: Platform
    public var service: Service
    public var developerMode: Bool
    public var managedMode: Bool
    public var declaredAs: String
    /// The domain's latest changed check (its findings and expectation results decide the cell).
    public var lastCheckID: Int64?
    public var lastVerdict: Verdict?
    public var lastChangedAt: Date?
    /// The domain's expectations measured against its current file (`domains.last_expectations`).
    public var lastExpectations: ExpectationResults?
    public var checking: Bool

    /// `*.example.com` for a wildcard.
    public var displayHost: String { wildcard ? "*.\(displayName)" : displayName }

}

/// A watched URL of an app, on its domain, and the platforms it is watched on.
public struct AppWatchedURLRecord: Sendable, Equatable {
    public var url: String
    public var domainID: Int64
    public var platforms: WatchedPlatforms

    public init(url: String, domainID: Int64, platforms: WatchedPlatforms = .both) {
        self.url = url
        self.domainID = domainID
        self.platforms = platforms
    }
}

/// A line of the by-app overview as stored: the app, how many domains it claims, its open alerts.
public struct AppListing: Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var appleAppIDs: [String]
    public var androidPackage: String?
    public var domainCount: Int
    public var openAlerts: Int
}
