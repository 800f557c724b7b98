import AASA
import Vocabulary

/// Which of a check's secondary requests to make. The primary fetch (Apple's `.well-known` as
/// AASA-Bot, Android's assetlinks.json as GoogleAssociationService) is always made; the others —
/// the platform's copy (Apple's CDN, Google's Digital Asset Links API) and the comparisons (the same
/// URL with other user agents, Apple's root location) — only where they can change the answer:
///
/// - when they are due at their own cadence (`copyDue`, `comparisonsDue`, decided by the caller from
///   when each was last asked);
/// - when the primary answer moved since the last check (`sameAsLast` says no): a new file, or one
///   that stopped being served, can change what the copy and the comparisons say;
/// - the comparisons also whenever the primary answer looks blocked (`looksBlocked`), so a firewall
///   that blocks only the platform's fetcher is named on the check that sees it.
///
/// A secondary request not made leaves its findings from the last check in place (`carried`): its
/// answer was the same input as last time, so skipping it changes nothing the user sees until it is
/// due again. `PlatformPlan.everything` (the CLI, the benchmarks) asks everything every time.
public struct PlatformPlan: Sendable {
    /// Ask the platform's copy (Apple's CDN / Google's API) even when the primary answer did not move.
    public var copyDue: Bool
    /// Make the comparisons even when the primary answer did not move and does not look blocked.
    public var comparisonsDue: Bool
    /// True when the primary fetch answered what it answered on the last check (same status class and
    /// the same file). Never true without a last check.
    public var sameAsLast: @Sendable (TransportFacts) -> Bool
    /// The last check's findings of this platform; those of the requests not made this time are kept.
    public var carried: [Finding]
    /// Read the certificate on a full TLS handshake (a new connection, no resumed session). Otherwise
    /// the primary fetch may ride on a kept connection or resume the host's TLS session, and reports
    /// the certificate that connection's (or session's) full handshake showed.
    public var certificateDue = true
    /// Ask the primary fetch conditionally: `If-None-Match` with the stored file's strong ETag. A 304
    /// answer means the stored file is current; the check then asks nothing else (the fetcher marks it
    /// `notModified` and the caller keeps the last result). Nil: an unconditional fetch.
    public var ifNoneMatch: String?
    /// How devices get Apple's file: through the CDN (a redirect is reported, never followed), or
    /// directly (`?mode=`: an https redirect is followed as the device follows it, each hop's host
    /// resolved, judged and pinned like the first). Android's checks ignore it.
    public var appleRoute: AppleRoute = .cdn

    public init(copyDue: Bool, comparisonsDue: Bool, sameAsLast: @escaping @Sendable (TransportFacts) -> Bool,
                carried: [Finding], certificateDue: Bool = true, ifNoneMatch: String? = nil, appleRoute: AppleRoute = .cdn) {
        self.copyDue = copyDue
        self.comparisonsDue = comparisonsDue
        self.sameAsLast = sameAsLast
        self.carried = carried
        self.certificateDue = certificateDue
        self.ifNoneMatch = ifNoneMatch
        self.appleRoute = appleRoute
    }

    /// This plan without its conditional header when `condition` holds.
    func unconditional(if condition: Bool) -> PlatformPlan {
        var plan = self
        if condition { plan.ifNoneMatch = nil }
        return plan
    }

    /// The primary answer is a 304 to our conditional fetch: the stored file is current.
    public func notModified(_ primary: TransportFacts) -> Bool {
        ifNoneMatch != nil && primary.failure == nil && primary.status == 304
    }

    /// Every request on every check (no history to lean on).
    public static let everything = PlatformPlan(copyDue: true, comparisonsDue: true, sameAsLast: { _ in false }, carried: [])

    /// `everything`, on the device's direct route (an entitlement's `?mode=`).
    public static let everythingDirect = PlatformPlan(copyDue: true, comparisonsDue: true, sameAsLast: { _ in false }, carried: [],
                                                      appleRoute: .direct)

    /// Whether a comparison made now could say something the primary answer does not: the
    /// platform's fetcher got an answer a firewall or bot filter gives (401, 403, 429, a 5xx, a
    /// challenge cut short), not a plain "no file here" (404, 410) or a failure before any request
    /// left (DNS, refused connection, the certificate), which every user agent meets alike.
    public static func looksBlocked(_ facts: TransportFacts) -> Bool {
        if let failure = facts.failure {
            switch failure.kind {
            case .timeout, .reset, .other: return true
            case .dns, .refused, .addressRefused, .notHTTPS, .tlsUntrusted, .tlsExpired, .tlsWrongHost, .tooLarge: return false
            }
        }
        guard let status = facts.status else { return false }
        return !(200..<300).contains(status) && status != 404 && status != 410
    }

    /// Whether the secondary requests decided after the primary fetch should be made.
    public func comparesAfter(_ primary: TransportFacts) -> Bool {
        if notModified(primary) { return comparisonsDue }
        return comparisonsDue || Self.looksBlocked(primary) || !sameAsLast(primary)
    }

    /// Whether the copy, when it was not due, should be asked after the primary fetch.
    public func asksCopyAfter(_ primary: TransportFacts) -> Bool {
        !copyDue && !notModified(primary) && !sameAsLast(primary)
    }
}

/// What one check asked besides the primary fetch, so the caller can record when each was last asked.
public struct SecondaryAsked: Hashable, Sendable {
    /// Apple's CDN or Google's API was asked.
    public var copy: Bool
    /// The comparisons (other user agents; Apple's root location) were made.
    public var comparisons: Bool
    /// The primary fetch was a full TLS handshake, so its certificate facts are as the server sends them now.
    public var certificate: Bool = true
    /// The primary fetch was unconditional (no If-None-Match).
    public var fullFetch: Bool = true
}
