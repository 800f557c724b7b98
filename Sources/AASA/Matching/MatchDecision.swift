/// What a document decides for one app and one URL (aasa-spec.md §12 step 9). `entry` indexes
/// `applinks.details`, `rule` that entry's `rules`.
public enum MatchDecision: Hashable, Sendable {
    /// A rule matched: the app opens the URL (unless an earlier app in the file takes it).
    case match(entry: Int, rule: Int)
    /// An `exclude` rule matched first: this app never gets the URL from this file.
    case exclude(entry: Int, rule: Int)
    /// No rule of the app matched.
    case noMatch

    /// "match", "exclude" or "no_match": the names of the batch protocol.
    public var name: String {
        switch self {
        case .match: "match"
        case .exclude: "exclude"
        case .noMatch: "no_match"
        }
    }

    public var entry: Int? {
        switch self {
        case .match(let entry, _), .exclude(let entry, _): entry
        case .noMatch: nil
        }
    }

    public var rule: Int? {
        switch self {
        case .match(_, let rule), .exclude(_, let rule): rule
        case .noMatch: nil
        }
    }
}

/// An app a URL reaches, with the rule that decided.
public struct AppMatch: Hashable, Sendable, Codable {
    public var appID: String
    public var entry: Int
    public var rule: Int
}
