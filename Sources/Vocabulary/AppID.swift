/// An Apple app identifier, `TEAMID.bundle.id` (aasa-spec.md §6.2), validated once by the one rule
/// the registration form, the API, the CLI import, `match` and the AASA validator share:
///
/// - the App ID prefix (Team ID) is exactly 10 upper-case ASCII letters or digits, as Apple issues them;
/// - then a dot and a bundle ID of ASCII letters, digits, hyphens and dots, with no empty part
///   (no leading, trailing or doubled dot).
///
/// A value of this type has passed the rule; code that holds one never checks it again.
public struct AppID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The whole identifier, e.g. `ABCDE12345.com.example.app`.
    public let text: String

    /// Validates `text` exactly as given (a space anywhere is an error).
    public init(_ text: String) throws(AppIDError) {
        if let problem = Self.problem(in: text) { throw AppIDError(input: text, problem: problem) }
        self.text = text
    }

    /// Validates what a person typed or pasted: surrounding whitespace is dropped first.
    public init(typed input: String) throws(AppIDError) {
        try self.init(input.trimmingWhitespace())
    }

    /// `ABCDE12345`: everything before the first dot.
    public var teamID: Substring { text[..<(text.firstIndex(of: ".") ?? text.endIndex)] }
    /// `com.example.app`: everything after the first dot.
    public var bundleID: Substring { text[text.index(after: text.firstIndex(of: ".") ?? text.startIndex)...] }

    public var description: String { text }
    public static func < (lhs: AppID, rhs: AppID) -> Bool { lhs.text < rhs.text }

    /// What is wrong with `text`, checked in a fixed order so every caller names the same first
    /// problem; nil when it is an app ID.
    public static func problem(in text: String) -> AppIDError.Problem? {
        let utf8 = Array(text.utf8)
        guard let dot = utf8.firstIndex(of: UInt8(ascii: ".")) else { return .noDot }
        let prefix = utf8[..<dot], bundle = utf8[(dot + 1)...]
        if prefix.isEmpty { return .emptyTeamID }
        if bundle.isEmpty { return .emptyBundleID }
        if let index = utf8.firstIndex(where: { !isAllowed($0) }) {
            let byte = utf8[index]
            return .disallowedCharacter(byte < 0x80 ? Character(Unicode.Scalar(byte)) : nil, inTeamID: index < dot)
        }
        if utf8.last == UInt8(ascii: ".") || zip(utf8, utf8.dropFirst()).contains(where: { $0 == UInt8(ascii: ".") && $1 == $0 }) {
            return .emptyBundlePart
        }
        let isTeamID = prefix.count == 10 && prefix.allSatisfy(isUpperOrDigit)
        if !isTeamID {
            let upper = String(decoding: prefix, as: UTF8.self).uppercased()
            return .nonstandardTeamID(upperCased: upper.utf8.count == 10 && upper.utf8.allSatisfy(isUpperOrDigit) ? upper : nil)
        }
        return nil
    }

    private static func isUpperOrDigit(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        isUpperOrDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
}

extension AppID: Codable {
    /// Coded as its text; decoding validates, so a stored or posted value that breaks the rule is an
    /// error, never an `AppID`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

/// Why a string is not an app ID: the problem as data (the AASA validator turns it into a finding),
/// and `message`, the sentence for the person who typed it.
public struct AppIDError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Problem: Hashable, Sendable {
        case noDot
        case emptyTeamID
        case emptyBundleID
        /// A character outside A–Z a–z 0–9 - . (nil: a non-ASCII one), and whether it is in the prefix.
        case disallowedCharacter(Character?, inTeamID: Bool)
        /// A trailing or doubled dot.
        case emptyBundlePart
        /// The prefix is not 10 upper-case letters or digits; `upperCased` when upper-casing fixes it.
        case nonstandardTeamID(upperCased: String?)
    }

    public let input: String
    public let problem: Problem

    public init(input: String, problem: Problem) {
        self.input = input
        self.problem = problem
    }

    var teamID: Substring { input[..<(input.firstIndex(of: ".") ?? input.endIndex)] }
    var bundleID: Substring { input[input.index(after: input.firstIndex(of: ".") ?? input.startIndex)...] }

    /// What is wrong and how to write it right, in a sentence.
    public var message: String {
        switch problem {
        case .noDot:
            "\"\(input)\" has no dot: write the Team ID, a dot, then the bundle ID, e.g. ABCDE12345.com.example.app"
        case .emptyTeamID, .disallowedCharacter(_, inTeamID: true), .nonstandardTeamID(upperCased: nil):
            "The Team ID \"\(teamID)\" must be 10 upper-case letters and digits, as shown in your Apple Developer account"
        case .nonstandardTeamID(upperCased: let upper?):
            "The Team ID \"\(teamID)\" must be upper-case: \(upper)"
        case .emptyBundleID, .disallowedCharacter(_, inTeamID: false), .emptyBundlePart:
            "The bundle ID \"\(bundleID)\" may only contain letters, digits, hyphens and dots, e.g. com.example.app"
        }
    }

    public var description: String { message }
}

extension String {
    /// Drops leading and trailing white space of any kind (what a paste brings along).
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let end = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[start...end])
    }
}
