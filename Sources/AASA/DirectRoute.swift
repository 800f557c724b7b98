import Vocabulary

/// How a device gets a domain's file (aasa-spec.md §3.2, §3.3).
public enum AppleRoute: String, Hashable, Sendable, Codable {
    /// Through Apple's CDN, which fetches from the origin: every ordinary entitlement.
    case cdn
    /// The device fetches the origin itself: an entitlement's `?mode=developer`, `managed` or both.
    case direct
}

/// The device's direct route follows redirects as its downloader (swcd, iOS 26.1) does: an https
/// Location is followed, a plain-HTTP one is not. Pure: which URL comes next, if any; the fetcher
/// resolves, judges and pins that URL's host like the first before it connects.
public enum DirectRoute {
    /// Our own bound on a chain of redirects (the device's is not documented).
    public static let maxRedirects = 5

    /// The statuses that carry a Location to follow (300 and 304 do not).
    static let followed: Set<Int> = [301, 302, 303, 307, 308]

    /// The absolute https URL `facts` redirects to, when the device would follow it and fewer than
    /// `maxRedirects` redirects were followed before; nil otherwise (not a redirect, no Location, http:).
    public static func nextURL(after facts: TransportFacts) -> String? {
        guard facts.failure == nil, let status = facts.status, followed.contains(status),
              (facts.followedRedirects?.count ?? 0) < maxRedirects,
              let target = facts.redirectTarget, target.lowercased().hasPrefix("https://") else { return nil }
        return target
    }
}
