import Vocabulary

/// What a config file declares, read but not yet checked against the database: hosts, app IDs and
/// channel kinds are validated by the application layer (`Registry`), by the same rules as the
/// form, and refused with the line each entry came from (`lines`).
public struct ConfigDocument: Sendable, Equatable {
    /// The top-level lists of a file. A list the file names (even empty) is managed by it: with
    /// `--prune`, what the database has beyond it is removed. A list the file leaves out is not
    /// touched, so a team can keep channels in the settings page and domains in git.
    public enum Section: String, Sendable, Hashable, CaseIterable {
        case domains, apps, channels
    }

    public var sections: Set<Section>
    public var domains: [DomainEntry]
    public var apps: [AppEntry]
    public var channels: [ChannelEntry]
    /// The instance's alert thresholds and retry interval (`alerts:`); nil: not managed by the file.
    public var alerts: AlertsEntry?

    public init(sections: Set<Section> = [], domains: [DomainEntry] = [], apps: [AppEntry] = [], channels: [ChannelEntry] = [],
                alerts: AlertsEntry? = nil) {
        self.sections = sections
        self.domains = domains
        self.apps = apps
        self.channels = channels
        self.alerts = alerts
    }
}

/// When alerts open and resolve (`alerts:`), as numbers from the file; the ranges are checked by the
/// registry, by the settings page's rules. A key left out keeps the instance's value.
public struct AlertsEntry: Sendable, Equatable {
    public struct Lines: Sendable, Equatable {
        public var entry = 0, failureThreshold = 0, successThreshold = 0, retryMinutes = 0
        public init() {}
    }

    public var failureThreshold: Int?
    public var successThreshold: Int?
    public var retryMinutes: Int?
    public var lines: Lines

    public init(failureThreshold: Int? = nil, successThreshold: Int? = nil, retryMinutes: Int? = nil, lines: Lines = Lines()) {
        self.failureThreshold = failureThreshold
        self.successThreshold = successThreshold
        self.retryMinutes = retryMinutes
        self.lines = lines
    }
}

/// An app (Apple and/or Android) and the domains it claims, as text from the file: the fields of
/// the app form (`AppRegistration`), checked by the app registry by the same rules.
public struct AppEntry: Sendable, Equatable {
    public struct Lines: Sendable, Equatable {
        public var entry = 0, name = 0, androidPackage = 0
        public var appleAppIDs: [Int] = [], fingerprints: [Int] = [], appleDomains: [Int] = [], androidHosts: [Int] = []
        public var watchedURLs: [Int] = [], androidWatchedURLs: [Int] = []
        public init() {}
    }

    /// The app's identity across applies: unique among apps.
    public var name: String
    public var appleAppIDs: [String]
    /// Associated Domains entries as the entitlement writes them (`applinks:example.com?mode=developer`).
    public var appleDomains: [String]
    /// Empty: no Android app.
    public var androidPackage: String
    public var fingerprints: [FingerprintEntry]
    /// Hosts Android verifies.
    public var androidHosts: [String]
    /// URLs that must open the app (on Apple and on Android).
    public var watchedURLs: [String]
    /// URLs that must open the app on Android only (an AndroidManifest.xml's paths).
    public var androidWatchedURLs: [String]
    public var lines: Lines

    public init(name: String, appleAppIDs: [String] = [], appleDomains: [String] = [], androidPackage: String = "",
                fingerprints: [FingerprintEntry] = [], androidHosts: [String] = [], watchedURLs: [String] = [],
                androidWatchedURLs: [String] = [], lines: Lines = Lines()) {
        self.name = name
        self.appleAppIDs = appleAppIDs
        self.appleDomains = appleDomains
        self.androidPackage = androidPackage
        self.fingerprints = fingerprints
        self.androidHosts = androidHosts
        self.watchedURLs = watchedURLs
        self.androidWatchedURLs = androidWatchedURLs
        self.lines = lines
    }
}

/// A domain to monitor with its expectations, as text from the file.
public struct DomainEntry: Sendable, Equatable {
    /// Where each value was written, so a refusal names its line.
    public struct Lines: Sendable, Equatable {
        public var entry = 0, host = 0, interval = 0, badge = 0, platforms = 0, paused = 0
        /// Per app ID (flattened in file order): the line of its service key and of the ID itself.
        public var services: [Int] = [], appIDs: [Int] = []
        public var watchedURLs: [Int] = [], expectations: [Int] = []
        /// Per watched URL: the line of its `android:` (the URL's own line when it has none).
        public var androidExpectations: [Int] = []
        /// Per Android app: the line of its package, and of its fingerprints (the first refused one's).
        public var androidPackages: [Int] = [], androidFingerprints: [Int] = []
        public init() {}
    }

    public var host: String
    /// nil: not managed by the file — a new domain gets the instance's default interval, an
    /// existing one keeps its own.
    public var intervalMinutes: Int?
    /// nil: not managed by the file (new domains: off).
    public var badge: Bool?
    /// both, apple or android as written (checked by the registry); nil: not managed by the file
    /// (new domains: both).
    public var platforms: String?
    /// true: not checked until the file (or a person) resumes it; nil: not managed by the file (new
    /// domains: checked).
    public var paused: Bool?
    public var appIDs: [AppIDEntry]
    public var watchedURLs: [WatchedURLEntry]
    /// The Android apps the domain itself must verify (`android_apps:`). Managed by the file as its
    /// app IDs are: an entry without them has none.
    public var androidApps: [AndroidAppEntry]
    public var lines: Lines

    public init(host: String, intervalMinutes: Int? = nil, badge: Bool? = nil, platforms: String? = nil, paused: Bool? = nil,
                appIDs: [AppIDEntry] = [], watchedURLs: [WatchedURLEntry] = [], androidApps: [AndroidAppEntry] = [], lines: Lines = Lines()) {
        self.host = host
        self.paused = paused
        self.androidApps = androidApps
        self.platforms = platforms
        self.intervalMinutes = intervalMinutes
        self.badge = badge
        self.appIDs = appIDs
        self.watchedURLs = watchedURLs
        self.lines = lines
    }
}

/// A notification channel and its routing (which severities, which domains). The kind-specific
/// settings (`to`, `url`, `secret`, …) are kept as written: which ones a kind takes is Notify's
/// business, checked by the application layer, so a new channel kind needs no change here.
public struct ChannelEntry: Sendable, Equatable {
    public struct Lines: Sendable, Equatable {
        public var entry = 0, name = 0, kind = 0, minSeverity = 0, enabled = 0
        public var domains: [Int] = [], apps: [Int] = []
        public var settings: [String: Int] = [:]
        public init() {}
    }

    /// The channel's identity in the file and in the database: unique among channels.
    public var name: String
    public var kind: String
    public var minSeverity: AlertSeverity
    /// Hosts whose events go to the channel; with `apps` empty too: every domain.
    public var domains: [String]
    /// Apps (by name) whose domains' events also go to the channel.
    public var apps: [String]
    public var enabled: Bool
    /// Kind-specific settings in file order.
    public var settings: [(key: String, text: ConfigText)]
    public var lines: Lines

    public init(name: String, kind: String, minSeverity: AlertSeverity = .info, domains: [String] = [], apps: [String] = [],
                enabled: Bool = true, settings: [(key: String, text: ConfigText)] = [], lines: Lines = Lines()) {
        self.name = name
        self.kind = kind
        self.minSeverity = minSeverity
        self.domains = domains
        self.apps = apps
        self.enabled = enabled
        self.settings = settings
        self.lines = lines
    }

    public func setting(_ key: String) -> ConfigText? { settings.first { $0.key == key }?.text }

    public static func == (a: ChannelEntry, b: ChannelEntry) -> Bool {
        a.name == b.name && a.kind == b.kind && a.minSeverity == b.minSeverity && a.domains == b.domains && a.apps == b.apps && a.enabled == b.enabled
            && a.settings.map(\.key) == b.settings.map(\.key) && a.settings.map(\.text) == b.settings.map(\.text) && a.lines == b.lines
    }
}
