import LocatedJSON
import TextEncoding
import Vocabulary

/// The relations Android features read (assetlinks-spec.md §3.3).
public enum Relation {
    public static let handleAllURLs = "delegate_permission/common.handle_all_urls"
    public static let getLoginCreds = "delegate_permission/common.get_login_creds"
    public static let useAsOrigin = "delegate_permission/common.use_as_origin"
    public static let shareLocation = "delegate_permission/common.share_location"
    public static let known = [handleAllURLs, getLoginCreds, useAsOrigin, shareLocation]
}

/// What a statement grants its permission to.
public enum StatementTarget: Hashable, Sendable, Codable {
    /// An app: the package and its signing-certificate fingerprints (upper case, colon-separated).
    case androidApp(packageName: String, fingerprints: [String])
    /// A web site, normalised: scheme and host lower case, no trailing dot, no default port.
    case web(site: String)
}

/// A statement Google honours: every relation valid, the target valid.
public struct Statement: Hashable, Sendable, Codable {
    /// Position of the statement in the file's array.
    public var index: Int
    public var relations: [String]
    public var target: StatementTarget
    /// The Android 15+ rules of this statement's `handle_all_urls` extension, when it has any.
    public var dynamicRules: DynamicRuleList?

    public var packageName: String? {
        if case .androidApp(let name, _) = target { return name }
        return nil
    }

    public var fingerprints: [String] {
        if case .androidApp(_, let fingerprints) = target { return fingerprints }
        return []
    }
}

/// `{"include": "https://…"}`: another list to read, fetched like the main file.
public struct IncludeDirective: Hashable, Sendable, Codable {
    public var index: Int
    public var url: String
}

/// A statement's `dynamic_app_link_components`: the rules in order, or — when any field is malformed —
/// the fact that Android discards all of them and lets the manifest decide (assetlinks-spec.md §4.2).
public enum DynamicRuleList: Hashable, Sendable, Codable {
    case rules([DynamicRule])
    /// Why the list was discarded, and where.
    case dropped(reason: String, pointer: String)

    public var rules: [DynamicRule]? {
        if case .rules(let rules) = self { return rules }
        return nil
    }
}

/// One component: every filter it has must match; `exclude` turns a match into "not opened".
public struct DynamicRule: Hashable, Sendable, Codable {
    public var path: String?
    public var fragment: String?
    /// `"?"` entries in file order: each must match some query parameter.
    public var query: [QueryEntry]
    public var exclude: Bool
    public var comments: String?
    /// JSON pointer of the rule, for findings and explanations.
    public var pointer: String
    public var line: Int?
    public var column: Int?

    public init(path: String? = nil, fragment: String? = nil, query: [QueryEntry] = [], exclude: Bool = false,
                comments: String? = nil, pointer: String = "", line: Int? = nil, column: Int? = nil) {
        self.path = path
        self.fragment = fragment
        self.query = query
        self.exclude = exclude
        self.comments = comments
        self.pointer = pointer
        self.line = line
        self.column = column
    }

    /// A rule with no filter never matches anything (AOSP-FW).
    public var isEmpty: Bool { path == nil && fragment == nil && query.isEmpty }

    /// The rule as JSON text, keys in a fixed order, for messages and the CLI.
    public var text: String {
        var parts: [String] = []
        if let path { parts.append("\"/\": \(JSONStringLiteral.quoted(path))") }
        if !query.isEmpty {
            parts.append("\"?\": {" + query.map { "\(JSONStringLiteral.quoted($0.name)): \(JSONStringLiteral.quoted($0.value))" }
                .joined(separator: ", ") + "}")
        }
        if let fragment { parts.append("\"#\": \(JSONStringLiteral.quoted(fragment))") }
        if exclude { parts.append("\"exclude\": true") }
        return "{" + parts.joined(separator: ", ") + "}"
    }
}

public struct QueryEntry: Hashable, Sendable, Codable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// An assetlinks.json as Google reads it: the statements it honours and the includes it follows.
/// Stored as coded here in `association_versions.reading` (read once, when the version is first
/// stored): change it additively, never by renaming.
public struct AssetLinksFile: Hashable, Sendable, Codable {
    public var statements: [Statement]
    public var includes: [IncludeDirective]
    /// How many elements the top-level array has (valid or not).
    public var elementCount: Int
    /// How many of them Google drops as invalid.
    public var droppedCount: Int

    public init(statements: [Statement] = [], includes: [IncludeDirective] = [], elementCount: Int = 0, droppedCount: Int = 0) {
        self.statements = statements
        self.includes = includes
        self.elementCount = elementCount
        self.droppedCount = droppedCount
    }

    /// The first statement granting `relation` to `packageName` (and, when given, one of whose
    /// fingerprints is `fingerprint`).
    public func statements(granting relation: String, to packageName: String, fingerprint: String? = nil) -> [Statement] {
        statements.filter { statement in
            statement.relations.contains(relation) && statement.packageName == packageName
                && (fingerprint.map { statement.fingerprints.contains($0.uppercased()) } ?? true)
        }
    }

    /// Every package named by a valid android_app target, in file order, once.
    public var packageNames: [String] {
        var seen = Set<String>()
        return statements.compactMap(\.packageName).filter { seen.insert($0).inserted }
    }
}
