import LocatedJSON
import TextEncoding
import Vocabulary

/// One statement as Google's Digital Asset Links API returns it: flattened to one relation and, for an
/// app, one fingerprint (assetlinks-spec.md §6). Sites come back fully qualified (`https://host.`).
public struct GoogleStatement: Hashable, Sendable, Codable {
    public var relation: String
    /// `android_app` or `web`, as in the file.
    public var namespace: String
    public var packageName: String?
    public var fingerprint: String?
    public var site: String?
    /// The statement's `relationExtensions` object as JSON text (member order kept); nil when absent or empty.
    public var relationExtensions: String?
}

/// `statements:list` for a site: Google's reading of its file (includes followed) as of its last fetch.
public struct GoogleStatementList: Hashable, Sendable, Codable {
    public var statements: [GoogleStatement] = []
    /// `ERROR_CODE_*` values; may be set although statements are returned.
    public var errorCodes: [String] = []
    /// How long the answer stays valid (the API's `maxAge`, `"600s"`), in seconds.
    public var maxAgeSeconds: Double?
    /// English and unstable: shown, never parsed.
    public var debugString: String?
}

/// `assetlinks:check` for one (relation, package, fingerprint).
public struct GoogleLinkCheck: Hashable, Sendable, Codable {
    public var relation: String
    public var packageName: String
    public var fingerprint: String
    public var linked: Bool
    public var errorCodes: [String] = []
    public var maxAgeSeconds: Double?
    public var debugString: String?
}

/// What Google's API said about a site in one check: its statement list and a check per expected
/// (package, fingerprint); or why it could not be asked.
public enum GoogleAnswer: Hashable, Sendable, Codable {
    case answered(list: GoogleStatementList, checks: [GoogleLinkCheck])
    /// The API was unreachable, refused the query or answered something unreadable.
    case unavailable(reason: String)
}

/// A body the parser could not take as the API's answer.
public struct GoogleResponseError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}

/// Reads the Digital Asset Links API's JSON answers. Pure; never traps on any input (a fuzz target,
/// `google-dal`, feeds it arbitrary bytes); an answer that is not the documented shape is an error
/// value naming what was wrong, and unknown fields are ignored as the API's clients must. The answer
/// types above are made only here, so their memberwise inits (internal) are enough.
public enum GoogleResponseParser {
    public static func statementList(_ bytes: [UInt8]) -> Result<GoogleStatementList, GoogleResponseError> {
        let root: JSONValue
        switch object(bytes) {
        case .failure(let error): return .failure(error)
        case .success(let object): root = object
        }
        var list = GoogleStatementList()
        list.errorCodes = strings(root, "errorCode")
        list.maxAgeSeconds = string(root, "maxAge").flatMap(duration)
        list.debugString = string(root, "debugString")
        if let value = root.member("statements")?.value {
            guard case .array(let elements) = value.kind else {
                return .failure(GoogleResponseError(message: "statements is \(value.typeDescription), not an array"))
            }
            for (index, element) in elements.enumerated() {
                guard case .object = element.kind else {
                    return .failure(GoogleResponseError(message: "statements[\(index)] is \(element.typeDescription), not an object"))
                }
                switch statement(element) {
                case .failure(let error):
                    return .failure(GoogleResponseError(message: "statements[\(index)]: \(error.message)"))
                case .success(let statement):
                    list.statements.append(statement)
                }
            }
        }
        return .success(list)
    }

    /// `relation`, `packageName` and `fingerprint` are the question asked; the answer does not repeat them.
    public static func check(_ bytes: [UInt8], relation: String, packageName: String, fingerprint: String)
        -> Result<GoogleLinkCheck, GoogleResponseError> {
        let root: JSONValue
        switch object(bytes) {
        case .failure(let error): return .failure(error)
        case .success(let object): root = object
        }
        var linked = false
        if let value = root.member("linked")?.value {
            guard case .bool(let flag) = value.kind else {
                return .failure(GoogleResponseError(message: "linked is \(value.typeDescription), not a Boolean"))
            }
            linked = flag
        }
        // proto3 JSON leaves a false `linked` out; an answer with neither linked nor an error code is still "not linked".
        return .success(GoogleLinkCheck(relation: relation, packageName: packageName, fingerprint: fingerprint, linked: linked,
                                        errorCodes: strings(root, "errorCode"),
                                        maxAgeSeconds: string(root, "maxAge").flatMap(duration),
                                        debugString: string(root, "debugString")))
    }

    /// `"600s"`, `"3.5s"` (google.protobuf.Duration in JSON): seconds with up to nine decimals.
    public static func duration(_ text: String) -> Double? {
        guard text.hasSuffix("s") else { return nil }
        let number = text.dropLast()
        guard !number.isEmpty, number.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") }),
              number.utf8.filter({ $0 == UInt8(ascii: ".") }).count <= 1,
              let value = Double(number), value.isFinite else { return nil }
        return value
    }

    // MARK: - Pieces

    private static func statement(_ object: JSONValue) -> Result<GoogleStatement, GoogleResponseError> {
        guard let relation = string(object, "relation") else {
            return .failure(GoogleResponseError(message: "no relation string"))
        }
        guard let target = object.member("target")?.value, case .object = target.kind else {
            return .failure(GoogleResponseError(message: "no target object"))
        }
        var statement = GoogleStatement(relation: relation, namespace: "")
        if let app = target.member("androidApp")?.value, case .object = app.kind {
            statement.namespace = "android_app"
            statement.packageName = string(app, "packageName")
            if let certificate = app.member("certificate")?.value {
                statement.fingerprint = string(certificate, "sha256Fingerprint")
            }
            guard statement.packageName != nil, statement.fingerprint != nil else {
                return .failure(GoogleResponseError(message: "an androidApp target without packageName or certificate.sha256Fingerprint"))
            }
        } else if let web = target.member("web")?.value, let site = string(web, "site") {
            statement.namespace = "web"
            statement.site = site
        } else {
            return .failure(GoogleResponseError(message: "a target that is neither androidApp nor web"))
        }
        if let extensions = object.member("relationExtensions")?.value, case .object(let extensionMembers) = extensions.kind,
           !extensionMembers.isEmpty {
            statement.relationExtensions = canonicalText(extensions)
        }
        return .success(statement)
    }

    /// The answer's top-level object, unless it is Google's error envelope.
    private static func object(_ bytes: [UInt8]) -> Result<JSONValue, GoogleResponseError> {
        let parsed = JSONReader.read(SourceText(bytes: bytes), kinds: .googleResponse)
        guard !parsed.failed, !parsed.findings.findings.contains(where: { $0.severity == .error }), let value = parsed.value else {
            let reason = parsed.findings.findings.first?.message ?? "not JSON"
            return .failure(GoogleResponseError(message: "the answer is not valid JSON (\(reason))"))
        }
        guard case .object = value.kind else {
            return .failure(GoogleResponseError(message: "the answer is \(value.typeDescription), not an object"))
        }
        if let error = value.member("error")?.value, case .object = error.kind {
            // Google's error envelope: {"error": {"code": 400, "message": "…", "status": "INVALID_ARGUMENT"}}.
            let message = string(error, "message") ?? "no message"
            let status = string(error, "status").map { " (\($0))" } ?? ""
            return .failure(GoogleResponseError(message: "the API refused the query: \(message)\(status)"))
        }
        return .success(value)
    }

    /// Members are looked up as the file readers do (`JSONValue.member`: the last of duplicate keys);
    /// nil when `object` is not an object or the member is not a string.
    private static func string(_ object: JSONValue, _ key: String) -> String? {
        object.member(key)?.value.stringValue
    }

    private static func strings(_ object: JSONValue, _ key: String) -> [String] {
        guard let value = object.member(key)?.value, case .array(let elements) = value.kind else { return [] }
        return elements.compactMap(\.stringValue)
    }

    /// The value as compact JSON, members in the order received: enough to compare and to rebuild a statement.
    static func canonicalText(_ value: JSONValue) -> String {
        switch value.kind {
        case .object(let members):
            return "{" + members.map { JSONStringLiteral.quoted($0.key) + ":" + canonicalText($0.value) }.joined(separator: ",") + "}"
        case .array(let elements):
            return "[" + elements.map(canonicalText).joined(separator: ",") + "]"
        case .string(let text): return JSONStringLiteral.quoted(text)
        case .number(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        case .null, .unreadable: return "null"
        }
    }
}

extension JSONFindingKinds {
    /// The API's answers are read with the same reader; its findings only decide "unreadable".
    static let googleResponse = JSONFindingKinds(
        invalidJSON: AndroidFinding.invalidJSON, invalidUTF8: AndroidFinding.encodingInvalid,
        duplicateKey: AndroidFinding.duplicateJSONKey, nestingTooDeep: AndroidFinding.nestingTooDeep,
        expectedDocument: "an API answer is a JSON object", truncated: AndroidFinding.findingsTruncated)
}
