import Vocabulary

/// How two versions of a file differ in what they do (not in their bytes). Empty lists mean no
/// difference of that kind; `isBehaviourallyEqual` is true when there is none of any kind.
public struct DocumentDiff: Hashable, Sendable, Codable {
    /// App IDs added or removed per service (applinks, webcredentials, appclips, activitycontinuation, others).
    public var services: [ServiceChange]
    /// Rule changes per app that appears in applinks in either version.
    public var apps: [AppRuleChanges]
    /// Set when the order of precedence between apps changed (the first entry in the file wins, §12 step 10).
    public var appOrder: AppOrderChange?
    /// For the URLs given: each app whose outcome changed.
    public var urls: [URLOutcomeChange]
    /// For the URLs given: each URL whose opening app changed.
    public var openers: [URLOpenerChange]

    public var isBehaviourallyEqual: Bool {
        services.isEmpty && apps.isEmpty && appOrder == nil && urls.isEmpty && openers.isEmpty
    }
}

public struct ServiceChange: Hashable, Sendable, Codable {
    public var service: String
    public var added: [String]
    public var removed: [String]
}

public struct AppRuleChanges: Hashable, Sendable, Codable {
    public var appID: String
    public var changes: [RuleChange]
}

/// One rule of an app's ordered rule list. Positions are zero-based over all the app's rules in
/// file order (entry by entry); `oldLocation`/`newLocation` point into each file.
public struct RuleChange: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable {
        case added, removed, moved, changed
    }

    public var kind: Kind
    public var oldPosition: Int?
    public var newPosition: Int?
    public var oldLocation: SourceLocation?
    public var newLocation: SourceLocation?
    public var oldRule: RuleBehaviour?
    public var newRule: RuleBehaviour?
    /// For `changed`: which keys behave differently (`/`, `?`, `#`, `exclude`, `caseSensitive`, `percentEncoded`, `$(name)`).
    public var changedKeys: [String]
}

public struct AppOrderChange: Hashable, Sendable, Codable {
    public var old: [String]
    public var new: [String]
}

public struct URLOutcomeChange: Hashable, Sendable, Codable {
    public var url: String
    public var appID: String
    public var old: MatchDecision
    public var new: MatchDecision
}

public struct URLOpenerChange: Hashable, Sendable, Codable {
    public var url: String
    /// The app that opens the URL (first in precedence), nil for the browser.
    public var old: String?
    public var new: String?
}

extension DocumentDiff: CustomStringConvertible {
    /// A printable summary, one change per line.
    public var description: String {
        lines.joined(separator: "\n") + "\n"
    }

    /// The summary's lines, for callers that escape each line for display (the CLI).
    public var lines: [String] {
        if isBehaviourallyEqual { return ["No change in behaviour."] }
        var lines: [String] = ["Behaviour changed:"]
        for service in services {
            let added = service.added.map { "+ \($0)" }
            let removed = service.removed.map { "- \($0)" }
            lines.append("  \(service.service) apps: " + (added + removed).joined(separator: ", "))
        }
        if let appOrder {
            lines.append("  app precedence: " + appOrder.old.joined(separator: " > ") + "  →  "
                + appOrder.new.joined(separator: " > "))
        }
        for app in apps {
            lines.append("  applinks rules of \(app.appID):")
            for change in app.changes {
                switch change.kind {
                case .added:
                    lines.append("    + added at \(Self.position(change.newPosition)): \(change.newRule?.text ?? "")")
                case .removed:
                    lines.append("    - removed from \(Self.position(change.oldPosition)): \(change.oldRule?.text ?? "")")
                case .moved:
                    lines.append("    ↕ moved \(Self.position(change.oldPosition)) → \(Self.position(change.newPosition)): "
                        + (change.newRule?.text ?? ""))
                case .changed:
                    lines.append("    ~ changed \(Self.position(change.oldPosition)) → \(Self.position(change.newPosition)) ("
                        + change.changedKeys.joined(separator: ", ") + "): \(change.oldRule?.text ?? "") → \(change.newRule?.text ?? "")")
                }
            }
        }
        if !urls.isEmpty || !openers.isEmpty {
            lines.append("  URLs:")
            for opener in openers {
                lines.append("    \(opener.url) opens \(opener.old ?? "the browser") → \(opener.new ?? "the browser")")
            }
            for change in urls {
                lines.append("    \(change.url) for \(change.appID): \(change.old.name) → \(change.new.name)")
            }
        }
        return lines
    }

    private static func position(_ index: Int?) -> String {
        index.map { "#\($0 + 1)" } ?? "?"
    }
}
