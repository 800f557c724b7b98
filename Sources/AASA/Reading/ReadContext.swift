import LocatedJSON
import Vocabulary

/// State shared while turning a JSON tree into an `AASADocument`: the findings so far, what the
/// pattern checks need to know about the rest of the file, and how to locate a value.
struct ReadContext {
    let source: SourceText
    var findings: FindingCollector
    /// Custom substitution variables by name (read before any pattern, whatever the key order).
    var variables: [String: [String]] = [:]
    /// Variable names some pattern referenced, for `subst-unused`.
    var referencedVariables: Set<String> = []
    /// `applinks.defaults`, so a pattern check knows the effective `percentEncoded`.
    var applinksDefaults: RuleSettings?
    /// `applinks.apps` is present: the author targets iOS 12 and earlier too.
    var targetsLegacyOS = false

    init(source: SourceText, findings: FindingCollector) {
        self.source = source
        self.findings = findings
    }

    func location(_ path: JSONPath, _ position: TextPosition) -> SourceLocation {
        source.location(path.pointer, position)
    }

    mutating func report(_ definition: FindingDefinition, _ path: JSONPath, _ position: TextPosition,
                         _ message: String, hint: String? = nil, severity: Severity? = nil) {
        findings.add(definition.finding(at: location(path, position), message, hint: hint, severity: severity))
    }

    /// Reports every key of `object` not in `known`, with a "did you mean" where one is close.
    /// `replaced` maps keys that have a more specific finding elsewhere and must not be reported here.
    mutating func reportUnknownKeys(_ object: [JSONMember], known: [String], at path: JSONPath, what: String,
                                    severity: Severity = .warning, aliases: [String: String] = [:],
                                    skipping skipped: Set<String> = []) {
        for member in object where !known.contains(member.key) && !skipped.contains(member.key) {
            let subject = what.prefix(1).uppercased() + what.dropFirst()
            let suggestion = aliases[member.key] ?? KeySuggestion.nearest(to: member.key, among: known)
            var message = "\(subject) has the key \"\(member.key)\", which Apple does not define; it is ignored."
            var hint: String? = "Remove it, or use one of: \(known.map { "\"\($0)\"" }.joined(separator: ", "))."
            if let suggestion {
                message = "\(subject) has the key \"\(member.key)\", which Apple ignores. Did you mean \"\(suggestion)\"?"
                hint = "Rename \"\(member.key)\" to \"\(suggestion)\" (key names are case-sensitive)."
            }
            report(.unknownKey, path.appending(member.key), member.keyPosition, message, hint: hint, severity: severity)
        }
    }
}
