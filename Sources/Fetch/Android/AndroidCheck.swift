import AssetLinks
import Foundation
import Vocabulary

/// Everything one Android check of a domain saw, and what it means: the typed result of
/// `Fetcher.checkAndroid`, which the check pipeline stores beside Apple's `AppleCheck`.
public struct AndroidCheck: Sendable {
    /// The registered host; for a `*.` registration, `host.ascii` is the bare domain whose file is fetched.
    public var host: HostName
    public var startedAt: Date
    public var finishedAt: Date
    /// `https://HOST/.well-known/assetlinks.json` as Google's fetcher asks it (`GoogleAssociationService`):
    /// no redirect followed, body capped, certificate facts included.
    public var origin: TransportFacts
    /// The same URL with a browser's and Android's client user agent (empty when the comparison is off).
    public var otherUserAgents: [TransportFacts]
    /// Each include fetched while resolving the statement list (at most `IncludeResolver.budget`).
    public var includes: [TransportFacts]
    /// Google's Digital Asset Links API; nil when no API base is configured.
    public var google: GoogleAnswer?
    /// Findings, verdict, the statements Google honours, and Google's difference from the origin.
    public var report: AndroidCheckReport
    /// Whether Google's API was asked and the comparisons made on this check (`PlatformPlan`).
    public var asked = SecondaryAsked(copy: true, comparisons: true)
    /// assetlinks.json answered 304 to a conditional fetch: the stored file is current, nothing was
    /// transferred or judged, and the caller keeps its last result.
    public var notModified = false

    /// The URL a host's Android file is fetched from (a wildcard registration's `ascii` is already the bare domain).
    public static func fileURL(for host: HostName) -> String { "https://\(host.ascii)/.well-known/assetlinks.json" }
}

/// Apple's and Android's checks of one domain, made together so they share the DNS answer and the connection.
public struct PlatformChecks: Sendable {
    public var apple: AppleCheck
    public var android: AndroidCheck
}
