import Vocabulary

/// The typed form of an apple-app-site-association file, as the parser understood it.
///
/// This is the contract between the parser/validator and the matcher/diff: change it additively
/// (new optional fields), never by renaming. It is also stored, coded as is, in
/// `association_versions.reading` (a version is read once, when first stored), so a rename would
/// make the stored readings unreadable. Values that were present but of the wrong type
/// are dropped here and reported as findings by the parser.
public struct AASADocument: Hashable, Sendable, Codable {
    public var applinks: AppLinks?
    /// Services whose value is `{"apps": [...]}`: webcredentials, activitycontinuation, appclips,
    /// authsrv and any unknown service that has that shape, keyed by service name.
    public var appServices: [String: AppsService]
    /// True when the bytes were a CMS/PKCS#7 SignedData message and this is the JSON inside.
    public var wasSigned: Bool

    public init(applinks: AppLinks? = nil, appServices: [String: AppsService] = [:], wasSigned: Bool = false) {
        self.applinks = applinks
        self.appServices = appServices
        self.wasSigned = wasSigned
    }
}

/// `{"apps": ["TEAMID.bundle", ...]}` for a non-applinks service.
public struct AppsService: Hashable, Sendable, Codable {
    public var apps: [String]
    public var location: SourceLocation

    public init(apps: [String], location: SourceLocation) {
        self.apps = apps
        self.location = location
    }
}

/// The `applinks` service (aasa-spec.md §5).
public struct AppLinks: Hashable, Sendable, Codable {
    public enum DetailsForm: String, Hashable, Sendable, Codable {
        case array, dictionary, missing, invalid
    }

    /// The legacy `apps` array, nil when absent.
    public var apps: [String]?
    public var detailsForm: DetailsForm
    /// Entries in document order. For the dictionary form, in the order the keys appear in the bytes.
    public var details: [DetailEntry]
    /// `applinks.defaults` (domain level); nil when absent or not an object.
    public var defaults: RuleSettings?
    /// `applinks.substitutionVariables`, in document order; values that were not strings are dropped.
    public var substitutionVariables: [SubstitutionVariable]
    public var location: SourceLocation

    public init(apps: [String]? = nil, detailsForm: DetailsForm = .array, details: [DetailEntry] = [],
                defaults: RuleSettings? = nil, substitutionVariables: [SubstitutionVariable] = [],
                location: SourceLocation = SourceLocation(pointer: "/applinks")) {
        self.apps = apps
        self.detailsForm = detailsForm
        self.details = details
        self.defaults = defaults
        self.substitutionVariables = substitutionVariables
        self.location = location
    }
}

public struct SubstitutionVariable: Hashable, Sendable, Codable {
    public var name: String
    public var values: [String]
    public var location: SourceLocation
}

/// One entry of `applinks.details` (aasa-spec.md §6).
public struct DetailEntry: Hashable, Sendable, Codable {
    /// The app identifiers this entry applies to, as a device reads them: `appIDs` when that key is
    /// present (even if empty), otherwise `appID`; for the dictionary form, the key.
    public var appIDs: [String]
    /// The rules a current OS uses: `components` when present, otherwise `paths` converted to
    /// `{"/": p}` / `{"/": p, "exclude": true}` rules (aasa-spec.md §12 step 6).
    public var rules: [Rule]
    /// Which key the rules came from.
    public var rulesSource: RulesSource
    /// The entry's own `defaults` (app level); nil when absent or not an object.
    public var defaults: RuleSettings?
    public var location: SourceLocation

    public enum RulesSource: String, Hashable, Sendable, Codable {
        case components, paths, none
    }

    public init(appIDs: [String], rules: [Rule], rulesSource: RulesSource, defaults: RuleSettings? = nil,
                location: SourceLocation) {
        self.appIDs = appIDs
        self.rules = rules
        self.rulesSource = rulesSource
        self.defaults = defaults
        self.location = location
    }
}

/// The keys a component or a `defaults` dictionary may carry; nil means "not specified here",
/// so the defaults hierarchy (rule → entry defaults → applinks defaults → built-in) can resolve it.
public struct RuleSettings: Hashable, Sendable, Codable {
    public var path: String?
    public var query: QuerySpec?
    public var fragment: String?
    public var exclude: Bool?
    public var caseSensitive: Bool?
    public var percentEncoded: Bool?

    public init(path: String? = nil, query: QuerySpec? = nil, fragment: String? = nil, exclude: Bool? = nil,
                caseSensitive: Bool? = nil, percentEncoded: Bool? = nil) {
        self.path = path
        self.query = query
        self.fragment = fragment
        self.exclude = exclude
        self.caseSensitive = caseSensitive
        self.percentEncoded = percentEncoded
    }
}

/// The `?` key: a pattern for the whole query string, or patterns for named items.
public enum QuerySpec: Hashable, Sendable, Codable {
    case string(String)
    /// Items in document order; a name may appear once (JSON object keys).
    case items([QueryItemPattern])
    /// A dictionary with a non-string value: Apple ignores the whole dictionary (aasa-spec.md §8.5 rule 5),
    /// so the rule behaves as if `?` were absent.
    case voided
}

public struct QueryItemPattern: Hashable, Sendable, Codable {
    public var name: String
    public var pattern: String

    public init(name: String, pattern: String) {
        self.name = name
        self.pattern = pattern
    }
}

/// One rule: a component dictionary, or a legacy path converted to one.
public struct Rule: Hashable, Sendable, Codable {
    public var settings: RuleSettings
    public var comment: String?
    /// For a converted legacy path, the original string (with any `NOT ` prefix).
    public var legacyPath: String?
    public var location: SourceLocation

    public init(settings: RuleSettings, comment: String? = nil, legacyPath: String? = nil, location: SourceLocation) {
        self.settings = settings
        self.comment = comment
        self.legacyPath = legacyPath
        self.location = location
    }
}
