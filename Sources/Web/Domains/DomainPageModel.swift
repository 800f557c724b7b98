import Vocabulary
import AASA

/// Everything the domain page shows, gathered by the handler from the store and the AASA module.
public struct DomainPageModel: Sendable {
    /// The current file as stored when it was first seen (`VersionReading`): its text, never its
    /// bytes, so the page cannot parse them (the Raw link serves them byte for byte). These views are
    /// built only inside Web, so their memberwise initialisers suffice.
    public struct FileView: Sendable {
        public var text: FileText
        public var size: Int
        public var hash: String
        public var firstSeen: Int64
    }

    /// One fetched location (origin well-known, origin root, Apple's CDN), for the side-by-side view.
    public struct LocationView: Sendable {
        public var title: String
        public var url: String
        public var status: Int?
        public var contentType: String?
        public var size: Int?
        public var versionHash: String?
        public var tlsIssuer: String?
        /// The names the certificate is for (its SANs, else its subject's CN: `TLSFacts.subjectNames`).
        public var certificateNames: [String] = []
        public var certificateNotAfter: Int64?
        public var totalMilliseconds: Double?
        /// DNS, connect, TLS, first byte: ms from the request's start, as the fetcher measured them.
        public var phaseMilliseconds: [(name: String, milliseconds: Double)] = []
        public var failure: String?
        /// Apple's CDN: judged by behaviour (the cdn-stale finding), since it may re-encode the file.
        public var isCDN: Bool = false
        /// The location answered 304 to our conditional request: what the card says instead of "Status 304".
        public var notModified: NotModifiedView?
    }

    /// A location that answered 304 Not Modified to our If-None-Match: the stored file is current. The
    /// card says so, with the version's first sighting and the facts of the last full answer (status,
    /// Content-Type, size), which are the origin's own.
    public struct NotModifiedView: Sendable {
        /// When the version the 304 stands for was first seen.
        public var since: Int64?
        /// The last full (unconditional or 200) answer of this location that a stored check kept.
        public var fullAnswerAt: Int64?
        public var status: Int?
        public var contentType: String?
        public var size: Int?
    }

    public struct TimelineEntry: Sendable {
        public var checkID: Int64
        public var time: Int64
        public var state: DomainState
        public var versionHash: String?
        /// This check saw a file no earlier check had seen for this domain.
        public var newVersion: Bool
        public var summary: String
        /// The unchanged checks that followed this one until the next change (none: nil).
        public var unchangedAfter: UnchangedRunView?
        /// Expectations this check's file missed (`state` is the file's verdict alone).
        public var unmetExpectations: Int = 0
        /// What changed on Android since the check before (`AndroidTimelineEvent`), in words.
        public var android: [String] = []
    }

    /// A run of unchanged checks, shown collapsed between the changes: "unchanged × 240, 10:00–20:00".
    public struct UnchangedRunView: Sendable {
        public var count: Int
        /// Seconds since 1970.
        public var first: Int64
        public var last: Int64
    }

    public struct VersionEntry: Sendable {
        public var hash: String
        public var firstSeen: Int64
        public var size: Int
    }

    public struct WatchedChange: Sendable {
        public var url: String
        public var before: String
        public var after: String
    }

    public struct DiffView: Sendable {
        public var fromHash: String
        public var toHash: String
        /// Sentences, most important first (an app lost a path, a rule now excludes…).
        public var behavioural: [String]
        public var watched: [WatchedChange]
        public var text: [TextDiff.Op]
    }

    public var id: Int64
    public var host: String
    public var displayHost: String
    public var isWildcard: Bool = false
    public var intervalMinutes: Int = 60
    /// When an alert opens, in words ("alerts after 2 failing checks, 1 min apart"); empty: not said.
    public var alerting = ""
    public var badge: Bool = false
    public var state: DomainState
    public var verdictSentence: String
    public var checking: Bool = false
    public var lastCheck: Int64?
    public var nextCheck: Int64?
    /// Not checked until resumed (`domains.paused`).
    public var paused: Bool = false
    public var findings: [Finding] = []
    public var file: FileView?
    public var locations: [LocationView] = []
    public var timeline: [TimelineEntry] = []
    public var versions: [VersionEntry] = []
    public var diff: DiffView?
    public var responseTimes: [LineChart.Point] = []
    public var certificateDays: [LineChart.Point] = []
    public var appIDs: [(service: Service, appID: String)] = []
    public var watched: [(url: String, expect: String)] = []
    /// The expectations measured against the current file; nil before a usable file was seen.
    public var expectationStatus: ExpectationStatus?
    public var now: Int64
    /// Apple's file verdict alone (the check's), for the Apple column beside Android's; nil before a check.
    public var appleState: DomainState?
    /// The Android column and details; nil on pages built without it (tests of Apple's sections alone).
    var android: AndroidPanel?
    /// What each watched URL must do on Android, by URL, for the expectations card: stated apart
    /// (`watched_urls.expected_android`) or, when Android counts, derived from Apple's; with the
    /// latest check's outcome on Android 15+ when it measured one.
    var androidWatched: [String: AndroidExpectationView] = [:]
    /// The Android apps the domain itself must verify (its form's), for the expectations card.
    var androidApps: [(package: String, keys: Int)] = []

    struct AndroidExpectationView: Sendable {
        /// "opens com.example.app" / "stays in the browser".
        var expected: String
        /// Stated apart from Apple's expectation, rather than derived from it.
        var statedApart: Bool
        /// The latest check's outcome; nil when none was measured (Android does not count, or no check yet).
        var actual: String?
        var holds: Bool?
    }
}
