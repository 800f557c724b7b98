import LocatedJSON
import Vocabulary

/// App identifier format (aasa-spec.md §6.2): `<App ID prefix>.<bundle ID>`, checked by `AppID`'s
/// one rule. A file is someone else's data, so the rule's verdict becomes findings: a prefix that is
/// not a 10-character Team ID is only a warning here (devices may still accept it), everything
/// else the rule refuses is malformed.
enum AppIDCheck {
    enum Problem: Equatable {
        case malformed(String)
        case nonstandardPrefix(String)
    }

    static func problems(_ appID: String) -> [Problem] {
        guard let problem = AppID.problem(in: appID) else { return [] }
        let prefix = appID[..<(appID.firstIndex(of: ".") ?? appID.endIndex)]
        switch problem {
        case .noDot:
            return [.malformed("\"\(appID)\" has no \".\"; an app ID is the App ID prefix (Team ID), a dot, and the bundle ID.")]
        case .emptyTeamID:
            return [.malformed("\"\(appID)\" has an empty App ID prefix before the first dot.")]
        case .emptyBundleID:
            return [.malformed("\"\(appID)\" has no bundle ID after the prefix.")]
        case .disallowedCharacter(let character, _):
            let shown = character.map { "'\($0)'" } ?? "a non-ASCII character"
            return [.malformed("\"\(appID)\" contains \(shown); app IDs use only A–Z, a–z, 0–9, hyphen and dot.")]
        case .emptyBundlePart:
            return [.malformed("\"\(appID)\" has an empty part between dots.")]
        case .nonstandardTeamID:
            return [.nonstandardPrefix("The prefix \"\(prefix)\" of \"\(appID)\" is not 10 upper-case letters or digits; App ID prefixes (Team IDs) look like ABCDE12345.")]
        }
    }

    static func check(_ appID: String, _ path: JSONPath, _ position: TextPosition, _ context: inout ReadContext) {
        for problem in problems(appID) {
            switch problem {
            case .malformed(let message):
                context.report(.appIDMalformed, path, position, message,
                    hint: "Copy the app ID from the developer account: Team ID, a dot, the bundle ID (ABCDE12345.com.example.app).")
            case .nonstandardPrefix(let message):
                context.report(.appIDPrefixNonstandard, path, position, message,
                    hint: "Check the prefix in the developer account (Membership → Team ID); it is usually upper case.")
            }
        }
    }
}
