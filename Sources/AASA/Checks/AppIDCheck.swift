import LocatedJSON

/// App identifier format (aasa-spec.md §6.2): `<App ID prefix>.<bundle ID>`; the prefix is normally
/// the 10-character Team ID, the bundle ID uses only `A–Z a–z 0–9 - .`.
enum AppIDCheck {
    enum Problem: Equatable {
        case malformed(String)
        case nonstandardPrefix(String)
    }

    static func problems(_ appID: String) -> [Problem] {
        let utf8 = Array(appID.utf8)
        guard let dot = utf8.firstIndex(of: UInt8(ascii: ".")) else {
            return [.malformed("\"\(appID)\" has no \".\"; an app ID is the App ID prefix (Team ID), a dot, and the bundle ID.")]
        }
        let prefix = utf8[..<dot]
        let bundle = utf8[(dot + 1)...]
        if prefix.isEmpty { return [.malformed("\"\(appID)\" has an empty App ID prefix before the first dot.")] }
        if bundle.isEmpty { return [.malformed("\"\(appID)\" has no bundle ID after the prefix.")] }
        if let bad = utf8.first(where: { !isAllowed($0) }) {
            let shown = bad < 0x80 ? "'\(Character(Unicode.Scalar(bad)))'" : "a non-ASCII character"
            return [.malformed("\"\(appID)\" contains \(shown); app IDs use only A–Z, a–z, 0–9, hyphen and dot.")]
        }
        if utf8.last == UInt8(ascii: ".") || zip(utf8, utf8.dropFirst()).contains(where: { $0 == UInt8(ascii: ".") && $1 == $0 }) {
            return [.malformed("\"\(appID)\" has an empty part between dots.")]
        }
        let standard = prefix.count == 10 && prefix.allSatisfy {
            ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
        }
        if !standard {
            let text = String(decoding: prefix, as: UTF8.self)
            return [.nonstandardPrefix("The prefix \"\(text)\" of \"\(appID)\" is not 10 upper-case letters or digits; App ID prefixes (Team IDs) look like ABCDE12345.")]
        }
        return []
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."):
            true
        default:
            false
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
