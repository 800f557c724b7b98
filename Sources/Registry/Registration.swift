import Vocabulary

/// A registration or an edit as the form, the API or an import file gave it: text as typed, checked
/// by `DomainRegistry` (`AppID` and `HostName` rules, the offered intervals, watched URLs on the host).
public struct Registration: Sendable, Equatable {
    /// Ignored by `edit` (the host never changes: another host is another domain).
    public var host: String
    public var appIDs: [AppIDEntry]
    public var watchedURLs: [WatchedURLEntry]
    /// nil: the instance's default (the `default_interval_minutes` setting).
    public var intervalMinutes: Int?
    public var badge: Bool
    /// The domain's own Android apps (`AndroidAppEntry`); nil: left as stored (a PATCH without them,
    /// the CLI's import list).
    public var androidApps: [AndroidAppEntry]?
    /// "both", "apple" or "android" as typed (`WatchedPlatforms`); nil: both for a new domain, unchanged in an edit.
    public var platforms: String?

    public init(host: String, appIDs: [AppIDEntry] = [], watchedURLs: [WatchedURLEntry] = [], intervalMinutes: Int? = nil,
                badge: Bool = false, platforms: String? = nil, androidApps: [AndroidAppEntry]? = nil) {
        self.host = host
        self.androidApps = androidApps
        self.platforms = platforms
        self.appIDs = appIDs
        self.watchedURLs = watchedURLs
        self.intervalMinutes = intervalMinutes
        self.badge = badge
    }

    /// The intervals a domain can be checked at, in minutes, with the words the pages use.
    public static let offeredIntervals: [(minutes: Int, label: String)] = [
        (5, "every 5 minutes"), (15, "every 15 minutes"), (60, "every hour"), (360, "every 6 hours"), (1440, "every day"),
    ]
}

/// A field of a `Registration`, so a refusal can be shown beside it (form), named in the JSON
/// error (API) or printed (CLI).
public enum RegistrationField: Hashable, Sendable, Comparable {
    case host
    case interval
    /// Which platforms the domain is watched for.
    case platforms
    /// The service of the i-th app ID row.
    case service(Int)
    case appID(Int)
    case watchedURL(Int)
    /// The expected outcome of the i-th watched URL.
    case expectation(Int)
    /// Its expected outcome on Android, when stated apart.
    case androidExpectation(Int)
    /// The package, and the fingerprints, of the i-th expected Android app.
    case androidPackage(Int)
    case androidFingerprints(Int)
}

/// Why a registration or edit was not saved. Validation problems come all at once, one per field,
/// so a person fixes every mistake in one round trip.
public enum RegistrationError: Error, Equatable, Sendable {
    case invalid([RegistrationField: String])
    case alreadyRegistered(id: Int64, displayName: String)
    case noSuchDomain

    /// The problems by field (for `alreadyRegistered`, the host's).
    public var fieldMessages: [RegistrationField: String] {
        switch self {
        case .invalid(let problems): problems
        case .alreadyRegistered(_, let name): [.host: "\(name) is already registered."]
        case .noSuchDomain: [:]
        }
    }

    /// The first problem in the order of the fields, for callers that report one.
    public var first: (field: RegistrationField?, message: String) {
        switch self {
        case .noSuchDomain: (nil, "No domain with this id; it may have been deleted.")
        default: fieldMessages.min { $0.key < $1.key }.map { ($0.key, $0.value) } ?? (nil, "Invalid input.")
        }
    }
}
