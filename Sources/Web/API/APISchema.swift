import Foundation
import TextEncoding
import Vocabulary

/// A request body as the API reads it: the JSON types kept apart (a Boolean is not the number 1,
/// null is not a missing member), so a body can be held exactly to the schema the document publishes.
enum APIJSON: Decodable, Equatable, Sendable {
    case object([String: APIJSON])
    case array([APIJSON])
    case string(String)
    case integer(Int)
    /// A number with a fraction, or one too large for `Int`.
    case number(Double)
    case bool(Bool)
    case null

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [String: APIJSON] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(APIJSON.self, forKey: key) }
            self = .object(members)
        } else if var list = try? decoder.unkeyedContainer() {
            var items: [APIJSON] = []
            while !list.isAtEnd { items.append(try list.decode(APIJSON.self)) }
            self = .array(items)
        } else {
            let value = try decoder.singleValueContainer()
            // Foundation's decoder never reads 1 as true, nor "1" as a number: each try meets one JSON type.
            if value.decodeNil() { self = .null }
            else if let b = try? value.decode(Bool.self) { self = .bool(b) }
            else if let i = try? value.decode(Int.self) { self = .integer(i) }
            else if let d = try? value.decode(Double.self) { self = .number(d) }
            else { self = .string(try value.decode(String.self)) }
        }
    }

    // A handler reads a body only after it fitted its schema (`APIRequest.body`), so each present
    // member has its documented type: nil here means the member was left out.
    var string: String? { if case .string(let s) = self { s } else { nil } }
    var integer: Int? { if case .integer(let n) = self { n } else { nil } }
    var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    var array: [APIJSON]? { if case .array(let items) = self { items } else { nil } }
    var object: [String: APIJSON]? { if case .object(let members) = self { members } else { nil } }

    var typeName: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .integer, .number: "a number"
        case .bool: "a Boolean"
        case .null: "null"
        }
    }
}

/// A JSON Schema that the API both publishes and enforces: the OpenAPI document renders these values
/// and every request body and query parameter is checked against the same values before a handler
/// sees it, so the document cannot allow what the server refuses, nor the server take what the
/// document refuses. A value that fits and is still refused (a host name IDNA rejects, a watched
/// URL on another host) is a 422: a rule no schema can state.
indirect enum APISchema: Sendable {
    /// Members not listed are refused (`additionalProperties: false`): a misspelt key is an error,
    /// not a silently ignored change.
    case object([(name: String, schema: APISchema)], required: [String])
    case array(APISchema, maxItems: Int)
    /// `pattern` is anchored (`^…$`) and read with Unicode scalar semantics, as JSON Schema does.
    case string(pattern: String?, maxLength: Int, description: String? = nil, example: String? = nil)
    case stringEnum([String])
    case integerEnum([Int])
    case integer(minimum: Int, maximum: Int)
    case boolean

    /// The schema as JSON text, for the OpenAPI document.
    var json: String {
        switch self {
        case .object(let members, let required):
            let properties = members.map { "\(Self.quoted($0.name)): \($0.schema.json)" }.joined(separator: ", ")
            let requiredPart = required.isEmpty ? "" : ", \"required\": [\(required.map(Self.quoted).joined(separator: ", "))]"
            return "{\"type\": \"object\", \"additionalProperties\": false\(requiredPart), \"properties\": {\(properties)}}"
        case .array(let items, let maxItems):
            return "{\"type\": \"array\", \"maxItems\": \(maxItems), \"items\": \(items.json)}"
        case .string(let pattern, let maxLength, let description, let example):
            var parts = ["\"type\": \"string\"", "\"maxLength\": \(maxLength)"]
            if let pattern { parts.append("\"pattern\": \(Self.quoted(pattern))") }
            if let description { parts.append("\"description\": \(Self.quoted(description))") }
            if let example { parts.append("\"example\": \(Self.quoted(example))") }
            return "{" + parts.joined(separator: ", ") + "}"
        case .stringEnum(let values):
            return "{\"type\": \"string\", \"enum\": [\(values.map(Self.quoted).joined(separator: ", "))]}"
        case .integerEnum(let values):
            return "{\"type\": \"integer\", \"enum\": [\(values.map(String.init).joined(separator: ", "))]}"
        case .integer(let minimum, let maximum):
            return "{\"type\": \"integer\", \"minimum\": \(minimum), \"maximum\": \(maximum)}"
        case .boolean:
            return "{\"type\": \"boolean\"}"
        }
    }

    static func quoted(_ text: String) -> String { JSONStringLiteral.quoted(text) }

    /// The first place `value` breaks the schema, named as the API names fields (`app_ids[1].app_id`),
    /// or nil when it fits.
    func violation(of value: APIJSON, at field: String) -> APIRefusal? {
        let named = field.isEmpty ? "The body" : field
        switch (self, value) {
        case (.object(let members, let required), .object(let given)):
            for name in required where given[name] == nil {
                return APIRefusal(field: Self.join(field, name), message: "\(Self.join(field, name)) is required.")
            }
            for name in given.keys.sorted() where !members.contains(where: { $0.name == name }) {
                let known = members.map(\.name).joined(separator: ", ")
                return APIRefusal(field: Self.join(field, name), message: "\(Self.join(field, name)) is not a field here; the fields are \(known).")
            }
            for member in members {
                if let v = given[member.name], let refusal = member.schema.violation(of: v, at: Self.join(field, member.name)) { return refusal }
            }
            return nil
        case (.array(let items, let maxItems), .array(let given)):
            guard given.count <= maxItems else { return APIRefusal(field: field, message: "\(named) has more than \(maxItems) entries.") }
            for (i, item) in given.enumerated() {
                if let refusal = items.violation(of: item, at: "\(field)[\(i)]") { return refusal }
            }
            return nil
        case (.string(let pattern, let maxLength, _, _), .string(let text)):
            guard text.unicodeScalars.count <= maxLength else {
                return APIRefusal(field: field, message: "\(named) is longer than \(maxLength) characters.")
            }
            if let pattern, !Self.matches(text, pattern) {
                return APIRefusal(field: field, message: APIPatterns.sentence(for: text, missing: pattern)
                                  ?? "\(named) does not have the documented form (pattern \(pattern)).")
            }
            return nil
        case (.stringEnum(let values), .string(let text)):
            return values.contains(text) ? nil : APIRefusal(field: field, message: "\(named) must be one of \(values.joined(separator: ", ")).")
        case (.integerEnum(let values), .integer(let n)):
            return values.contains(n) ? nil
                : APIRefusal(field: field, message: "\(named) must be one of \(values.map(String.init).joined(separator: ", ")).")
        case (.integer(let minimum, let maximum), .integer(let n)):
            return (minimum...maximum).contains(n) ? nil
                : APIRefusal(field: field, message: "\(named) must be an integer from \(minimum) to \(maximum).")
        case (.boolean, .bool):
            return nil
        default:
            return APIRefusal(field: field.isEmpty ? "body" : field, message: "\(named) must be \(expectedType), not \(value.typeName).")
        }
    }

    /// Query parameters arrive as text: the same schema, read from a string (`true`/`false`, decimal integers).
    func violation(ofQueryValue text: String, at name: String) -> APIRefusal? {
        switch self {
        case .integer, .integerEnum:
            guard let n = Self.decimalInteger(text) else {
                return APIRefusal(field: name, message: "The query parameter \(name) must be an integer.")
            }
            return violation(of: .integer(n), at: name)
        case .boolean:
            return text == "true" || text == "false" ? nil : APIRefusal(field: name, message: "The query parameter \(name) must be true or false.")
        default:
            return violation(of: .string(text), at: name)
        }
    }

    /// An optional minus sign and ASCII digits only: Swift's `Int("+5")` would take a plus sign no
    /// JSON integer has.
    static func decimalInteger(_ text: String) -> Int? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }

    private var expectedType: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string, .stringEnum: "a string"
        case .integer, .integerEnum: "an integer"
        case .boolean: "true or false"
        }
    }

    private static func join(_ field: String, _ name: String) -> String { field.isEmpty ? name : "\(field).\(name)" }

    /// The patterns are compiled once: they are a fixed, small set. `Regex` is not marked Sendable,
    /// but this dictionary is built once and only read, and a match never mutates the regex.
    nonisolated(unsafe) private static let compiled: [String: Regex<AnyRegexOutput>] = {
        var out: [String: Regex<AnyRegexOutput>] = [:]
        for pattern in APIPatterns.all {
            // A pattern that does not compile is a programming error caught by every API test.
            if let regex = try? Regex(pattern) { out[pattern] = regex.matchingSemantics(.unicodeScalar) }
        }
        return out
    }()

    /// JSON Schema's `pattern` is a search; ours are all anchored, so a search is a whole match.
    static func matches(_ text: String, _ pattern: String) -> Bool {
        guard let regex = compiled[pattern] else { return false }
        return (try? regex.firstMatch(in: text)) != nil
    }
}

/// Why a request does not fit the document: the field as the API names it, and what to change.
struct APIRefusal: Error, Equatable, Sendable {
    var field: String
    var message: String
}

/// The patterns the API publishes and enforces, each written once.
enum APIPatterns {
    /// A host name as typed, in two spellings: plain ASCII labels (letters, digits, single inner
    /// hyphens; the first label starts with a letter) or labels that may also hold characters beyond
    /// ASCII in the Basic Multilingual Plane (an IDN) and hyphens anywhere; an optional `*.` wildcard
    /// prefix and trailing dot. The server refuses what fits neither (400) and converts the rest with
    /// IDNA2008: what IDNA then refuses (a hyphen at a label's end or in its 3rd and 4th place, a
    /// label over 63 bytes, Punycode that does not decode, a disallowed character) is a 422. The
    /// first spelling is a subset of the second that IDNA always accepts; it is spelt out so that
    /// generated requests (Schemathesis draws each alternative about half the time) often succeed.
    static let host = #"^(\*\.)?(?:[A-Za-z][A-Za-z0-9]{0,19}(?:-[A-Za-z0-9]{1,20}){0,2}(?:\.[A-Za-z0-9]{1,20}(?:-[A-Za-z0-9]{1,20}){0,2}){0,3}|[0-9A-Za-z\u0080-\uD7FF\uE000-\uFFFF-]+(?:\.[0-9A-Za-z\u0080-\uD7FF\uE000-\uFFFF-]+)*)\.?$"#
    /// `TEAMID.bundle.id`: a 10-character upper-case Team ID, a dot, a bundle ID of letters, digits,
    /// hyphens and dots with no empty part (Vocabulary's `AppID`).
    static let appID = #"^[A-Z0-9]{10}\.[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$"#
    /// A watched URL's expected outcome: an app ID, or `browser`.
    static let expectation = #"^(browser|[A-Z0-9]{10}\.[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*)$"#
    /// A watched URL's outcome on Android, when stated apart: an Android package name, or `nothing`.
    static let androidExpectation = #"^(nothing|[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+)$"#
    /// A whole http(s) URL, without white space or control characters; it must be on the domain (422 when not).
    static let watchedURL = #"^https?://[!-~\u0080-\uD7FF\uE000-\uFFFF]+$"#
    /// Search text: anything but control characters.
    static let searchText = #"^[^\u0000-\u001F\u007F]*$"#
    /// A stored file's SHA-256.
    static let sha256 = #"^[0-9a-f]{64}$"#

    /// A channel's credential: printable ASCII, blanks around it allowed (they are trimmed).
    static let credential = #"^ *[!-~]* *$"#
    /// A Telegram chat: its number (negative for groups and channels), or @ and a public channel's name.
    static let telegramChat = #"^(-?[0-9]{1,20}|@[A-Za-z0-9_]{4,64})$"#

    /// An environment variable's name, as a config file's `${NAME}` reference writes it.
    static let environmentName = #"^[A-Za-z_][A-Za-z0-9_]*$"#

    static let all = [host, appID, expectation, androidExpectation, watchedURL, searchText, sha256, credential, telegramChat,
                      environmentName]

    /// The sentence the form says for a value that misses `pattern`, where the form has one: an app
    /// ID's problem as `AppIDError` words it ("The Team ID "abcde12345" must be upper-case:
    /// ABCDE12345"), so the API and the form refuse the same value with the same words, not the API
    /// with a regular expression. Nil for other patterns: the generic refusal names the pattern.
    static func sentence(for text: String, missing pattern: String) -> String? {
        guard pattern == appID || (pattern == expectation && text != "browser") else { return nil }
        return AppID.problem(in: text).map { AppIDError(input: text, problem: $0).message }
    }
}
