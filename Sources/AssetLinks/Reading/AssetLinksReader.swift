import LocatedJSON
import Vocabulary

/// Where the file was served from: an http include is allowed only in a file that itself came over
/// http (the DAL API accepts http sites; App Links do not) (assetlinks-spec.md §3.5).
public enum AssetLinksSource: String, Hashable, Sendable, Codable {
    case https, http
    /// An app's `asset_statements` resource: a secure source, like https.
    case app
}

/// What Google makes of one assetlinks.json on its own (includes are not followed here).
public struct AssetLinksReading: Sendable {
    /// The statements and includes Google honours; nil when it reads none (invalid JSON, not an array).
    public var file: AssetLinksFile?
    /// Everything the reader noticed, in file order.
    public var findings: [Finding]
    /// Whether Google's API reports an error for this file: unreadable, `[]`, or any statement dropped
    /// (it flags malformed content even when other statements still apply).
    public var googleReportsError: Bool
}

/// Reads assetlinks.json as Google does: strict JSON (any syntax error and Google reads nothing), a
/// top-level array, each statement valid or dropped on its own (assetlinks-spec.md §3). Never throws
/// and never traps on any input; every finding has a JSON pointer and, in the file, a line:column.
public enum AssetLinksReader {
    /// AOSP's verifier reads at most 1 MiB (assetlinks-spec.md §2.2).
    public static let sizeLimit = 1_048_576

    /// The members that make an object Android's file in the wrong shape: one statement written
    /// without its array (`relation`, `target`), or the statements wrapped in an object.
    static let statementMembers = ["relation", "target"], wrapperMember = "statements"

    /// Whether `bytes` are Android's file in the wrong shape: a JSON object holding a statement's
    /// `relation` / `target`, or a `statements` member. Such a file is assetlinks.json that Google
    /// reads nothing from, not a broken apple-app-site-association (the CLI asks this of a file named
    /// neither way).
    public static func isMisshapenAssetLinks(_ bytes: [UInt8]) -> Bool {
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard let root = JSONReader.read(SourceText(bytes: bytes), from: start, kinds: .assetlinks).value else { return false }
        return holdsStatements(root)
    }

    static func holdsStatements(_ root: JSONValue) -> Bool {
        guard case .object = root.kind else { return false }
        return (statementMembers + [wrapperMember]).contains { root.member($0) != nil }
    }

    /// What the not-an-array finding says: the usual mistakes (one statement without its array, the
    /// array wrapped in an object) named, so the fix is plain.
    static func notArrayWords(_ root: JSONValue) -> (message: String, hint: String) {
        let tail = "but assetlinks.json must be a JSON array of statements; Google reads no statement from it."
        if case .object = root.kind, root.member(wrapperMember) != nil {
            return ("The file is an object holding \"statements\", \(tail)", "Serve the statements array itself: [ {…}, {…} ], without the object around it.")
        }
        if holdsStatements(root) {
            return ("The file is one statement object (relation, target), \(tail)", "Wrap the statement in [ ].")
        }
        return ("The file is \(root.typeDescription), \(tail)", "Wrap the statement(s) in [ ].")
    }

    public static func read(_ bytes: [UInt8], source: AssetLinksSource = .https) -> AssetLinksReading {
        var context = ReadContext(source: SourceText(bytes: bytes), servedFrom: source)
        if bytes.count > sizeLimit {
            context.report(AndroidFinding.sizeOverLimit, nil,
                "The file is \(bytes.count) bytes; Android's verifier reads at most \(sizeLimit) bytes (1 MiB).",
                hint: "Move statements into include files, or remove unused ones.")
        }
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            start = 3
            context.report(AndroidFinding.utf8BOM, SourceLocation(pointer: "", line: 1, column: 1),
                "The file starts with a UTF-8 byte-order mark; strict JSON parsers may refuse it.",
                hint: "Save the file as UTF-8 without BOM.")
        }
        if let first = bytes[start...].first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }), first == UInt8(ascii: "<") {
            context.report(AndroidFinding.bodyIsHTML, SourceLocation(pointer: "", line: 1, column: 1),
                "The body is HTML, not JSON: the server answers this path with a web page (often a single-page app's catch-all route).",
                hint: "Serve the file itself at /.well-known/assetlinks.json, with Content-Type: application/json.")
            return AssetLinksReading(file: nil, findings: context.findings.finish(), googleReportsError: true)
        }
        let parsed = JSONReader.read(context.source, from: start, kinds: .assetlinks)
        context.findings.add(contentsOf: parsed.findings.finish())
        // Google parses strictly: a syntax error the forgiving reader stepped over still fails the file.
        let strictFailure = parsed.failed || parsed.findings.findings.contains {
            $0.code == AndroidFinding.invalidJSON.code || $0.code == AndroidFinding.encodingInvalid.code
        }
        guard let root = parsed.value else {
            return AssetLinksReading(file: nil, findings: context.findings.finish(), googleReportsError: true)
        }
        guard case .array(let elements) = root.kind else {
            let (message, hint) = Self.notArrayWords(root)
            context.report(AndroidFinding.notArray, .root, root.position, message, hint: hint)
            return AssetLinksReading(file: nil, findings: context.findings.finish(), googleReportsError: true)
        }
        var file = AssetLinksFile(elementCount: elements.count)
        for (index, element) in elements.enumerated() {
            switch StatementReader.read(element, index: index, &context) {
            case .statement(let statement): file.statements.append(statement)
            case .include(let include): file.includes.append(include)
            case .dropped: file.droppedCount += 1
            }
        }
        if file.includes.count > IncludeResolver.budget {
            context.report(AndroidFinding.includeLimit, .root, root.position,
                "The file has \(file.includes.count) includes; Google follows at most \(IncludeResolver.budget) per tree.",
                hint: "Merge include files, or list the statements directly.")
        }
        if strictFailure {
            // The structure was still read, so its findings help; but Google honours nothing.
            return AssetLinksReading(file: nil, findings: context.findings.finish(), googleReportsError: true)
        }
        reportSummary(file, root, &context)
        let usable = file.statements.contains { !$0.relations.isEmpty } || !file.includes.isEmpty
        return AssetLinksReading(file: file, findings: context.findings.finish(),
                                 googleReportsError: elements.isEmpty || file.droppedCount > 0 || !usable)
    }

    private static func reportSummary(_ file: AssetLinksFile, _ root: JSONValue, _ context: inout ReadContext) {
        let granting = file.statements.filter { !$0.relations.isEmpty }.count
        if file.elementCount == 0 {
            context.report(AndroidFinding.empty, .root, root.position,
                "The list is empty: it grants nothing, and Google's API answers \"No statements were found\".",
                hint: "Add a statement for each app, e.g. the snippet Play Console generates.")
        } else if granting == 0 && file.includes.isEmpty {
            context.report(AndroidFinding.empty, .root, root.position,
                "No statement Google would honour is left: every statement is invalid or grants no relation.",
                hint: "Fix the errors above.")
        }
        if file.droppedCount > 0 {
            let kept = file.elementCount - file.droppedCount
            context.report(AndroidFinding.statementDropped, .root, root.position,
                "\(file.droppedCount) of \(file.elementCount) statements are invalid and dropped; "
                    + (kept > 0 ? "the other \(kept) still apply, but Google's API reports the file as malformed."
                                : "none is left."),
                hint: "Fix the errors listed for each dropped statement.")
        }
    }
}

/// State while reading: the findings so far and how to locate a value.
struct ReadContext {
    let source: SourceText
    let servedFrom: AssetLinksSource
    var findings = FindingCollector(truncation: AndroidFinding.findingsTruncated)

    init(source: SourceText, servedFrom: AssetLinksSource) {
        self.source = source
        self.servedFrom = servedFrom
    }

    func location(_ path: JSONPath, _ position: TextPosition) -> SourceLocation {
        source.location(path.pointer, position)
    }

    mutating func report(_ definition: FindingDefinition, _ location: SourceLocation?, _ message: String,
                         hint: String? = nil, severity: Severity? = nil) {
        findings.add(definition.finding(at: location, message, hint: hint, severity: severity))
    }

    mutating func report(_ definition: FindingDefinition, _ path: JSONPath, _ position: TextPosition, _ message: String,
                         hint: String? = nil, severity: Severity? = nil) {
        report(definition, location(path, position), message, hint: hint, severity: severity)
    }

    /// A member the statement cannot do without: when `object` lacks it, the statement is dropped
    /// (`valid` false) and `missing` is reported at the object.
    mutating func required(_ key: String, of object: JSONValue, _ path: JSONPath, valid: inout Bool,
                           _ missing: FindingDefinition, _ message: String, hint: String) -> JSONMember? {
        if let member = object.member(key) { return member }
        valid = false
        report(missing, path, object.position, message, hint: hint)
        return nil
    }

    /// A member's text: when it is not a string, the statement is dropped (`valid` false) and
    /// `definition` is reported at the value.
    mutating func string(_ key: String, _ member: JSONMember, _ path: JSONPath, valid: inout Bool, _ definition: FindingDefinition,
                         hint: String) -> String? {
        if let text = member.value.stringValue { return text }
        valid = false
        report(definition, path, member.value.position,
               "\"\(key)\" is \(member.value.typeDescription), not a string; Google drops the statement.", hint: hint)
        return nil
    }

    /// Reports each key of `members` not in `known` once, as a warning when it is a near miss of a
    /// known key (`packageName` for `package_name` loses the real field), else as info.
    mutating func reportUnknownKeys(_ members: [JSONMember], known: [String], at path: JSONPath, what: String,
                                    definition: FindingDefinition = AndroidFinding.unknownKey,
                                    aliases: [String: String] = [:]) {
        var seen = Set<String>()
        for member in members where !known.contains(member.key) && seen.insert(member.key).inserted {
            let suggestion = aliases[member.key] ?? KeySuggestion.nearest(to: member.key, among: known)
                ?? KeySuggestion.nearest(to: member.key.replacingUnderscores, among: known)
            let message: String
            let hint: String
            if let suggestion {
                message = "\(what) has the key \"\(member.key)\", which Android ignores. Did you mean \"\(suggestion)\"?"
                hint = "Rename \"\(member.key)\" to \"\(suggestion)\" (key names are exact)."
            } else {
                message = "\(what) has the key \"\(member.key)\", which the format does not define; it is ignored."
                hint = "Remove it unless another tool needs it."
            }
            let severity: Severity? = definition.code == AndroidFinding.unknownKey.code ? (suggestion == nil ? .info : .warning) : nil
            report(definition, path.appending(member.key), member.keyPosition, message, hint: hint, severity: severity)
        }
    }
}

private extension String {
    /// `packageName` → `package_name` style comparison: camelCase keys are the commonest slip.
    var replacingUnderscores: String {
        var out = ""
        for character in self {
            if character.isUppercase, !out.isEmpty { out += "_" + character.lowercased() } else { out.append(character) }
        }
        return out
    }
}
