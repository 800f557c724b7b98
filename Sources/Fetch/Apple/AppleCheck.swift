import AASA
import Foundation
import Vocabulary

/// Everything one check of a domain saw, and what it means.
public struct AppleCheck: Sendable {
    public var host: HostName
    public var startedAt: Date
    public var finishedAt: Date
    /// `.well-known`, fetched as Apple's CDN fetcher identifies itself.
    public var wellKnown: TransportFacts
    /// The legacy root location; nil when the configuration fetches it only on demand and it was not needed.
    public var root: TransportFacts?
    /// Apple's CDN copy; nil when the CDN is not asked.
    public var cdn: TransportFacts?
    /// `.well-known` again with a browser's User-Agent; nil when the comparison is off.
    public var plainUserAgent: TransportFacts?
    public var report: CheckReport
    /// Whether Apple's CDN was asked and the comparisons made on this check (`PlatformPlan`).
    public var asked = SecondaryAsked(copy: true, comparisons: true)
    /// `.well-known` answered 304 to a conditional fetch: the stored file is current, nothing was
    /// transferred or judged (`report` says nothing), and the caller keeps its last result.
    public var notModified = false
}
