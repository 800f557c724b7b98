import Vocabulary

/// Checks one pattern for mistakes that make it never match or match something else than meant
/// (aasa-spec.md §8, §10): substitution variables, non-ASCII and `%XX` against `percentEncoded`,
/// `#` in a path, `NOT ` in components, text that a URL component cannot contain.
enum PatternCheck {
    static let builtinVariables: Set<String> = ["alpha", "upper", "lower", "alnum", "digit", "xdigit", "region", "lang"]

    static func check(_ site: PatternSite, percentEncoded: Bool, _ context: inout ReadContext) {
        let text = site.text
        let bytes = Array(text.utf8)
        // One pass finds which bytes occur; each check below runs only when its bytes are there.
        // Most patterns are plain paths that trip no check, and a scan per check was most of the cost.
        let has = BytesPresent(bytes)
        if site.kind == .queryItemName {
            if has.ampersand || has.equals {
                context.report(.patternNeverMatches, site.path, site.position,
                    "The query item name \"\(text)\" contains & or =, which separate query items, so no item has this name.",
                    hint: "Use only the item's name as the key, e.g. {\"id\": \"*\"} for ?id=…")
            }
            return
        }
        let what = description(of: site)
        if has.dollar { checkVariables(site, bytes, percentEncoded: percentEncoded, &context) }

        if percentEncoded && has.nonASCII {
            context.report(.nonASCIIPatternEncoded, site.path, site.position,
                "\(what) \"\(text)\" contains non-ASCII characters but is compared with the percent-encoded URL, which is pure ASCII, so it can never match.",
                hint: "Add \"percentEncoded\": false to the rule (iOS 14+), or write the characters percent-encoded (é → %C3%A9).")
        }
        if !percentEncoded && has.percent && containsPercentEscape(bytes) {
            context.report(.escapedPatternDecoded, site.path, site.position,
                "\(what) \"\(text)\" contains a %XX escape, but with percentEncoded false the URL is decoded before comparing and the pattern is not, so the escape only matches a literal \"%\".",
                hint: "Write the decoded character instead of the escape, or remove \"percentEncoded\": false.")
        }
        // Item values may be compared decoded [uncertain §8.5], so a space there is left alone.
        if percentEncoded, site.kind != .queryItemValue, has.controlOrSpace, let bad = bytes.first(where: { $0 <= 0x20 || $0 == 0x7F }) {
            context.report(.patternNeverMatches, site.path, site.position,
                "\(what) \"\(text)\" contains \(bad == 0x20 ? "a space" : "a control character"); URLs as sent are percent-encoded and never contain one, so it can never match.",
                hint: bad == 0x20 ? "Write the space as %20." : "Remove the control character.")
        }
        switch site.kind {
        case .path:
            if has.hash {
                context.report(.pathPatternHasHash, site.path, site.position,
                    "\(what) \"\(text)\" contains \"#\", but the path of a URL ends before the fragment, so it can never match.",
                    hint: site.legacy ? "Fragments need components: {\"/\": \"…\", \"#\": \"…\"} (iOS 13+)."
                        : "Move the part after # into a \"#\" key of the same component.")
            }
            if !site.legacy && bytes.hasPrefixSequence("NOT ") {
                context.report(.notPrefixInComponents, site.path, site.position,
                    "\(what) \"\(text)\" starts with \"NOT \", which means nothing inside components: it matches paths that literally start with \"NOT \".",
                    hint: "Remove \"NOT \" and add \"exclude\": true to the component.")
            }
            if has.colon && (bytes.containsSequence("://") || bytes.hasPrefixSequence("http:") || bytes.hasPrefixSequence("https:")) {
                context.report(.patternNeverMatches, site.path, site.position,
                    "\(what) \"\(text)\" contains a scheme or host; it is compared with the URL path only, so it can never match.",
                    hint: "Write only the path, e.g. \"/products/*\".")
            } else if has.question && has.equals && looksLikeQuery(bytes) {
                context.report(.patternNeverMatches, site.path, site.position,
                    "\(what) \"\(text)\" looks like it includes a query string, but the path never contains the query: \"?\" here is a one-character wildcard.",
                    hint: site.legacy ? "Legacy paths cannot match queries; use components with a \"?\" key (iOS 13+)."
                        : "Move the query part into the component's \"?\" key.")
            }
        case .query:
            if has.hash {
                context.report(.patternNeverMatches, site.path, site.position,
                    "\(what) \"\(text)\" contains \"#\", but the query ends where the fragment starts, so it can never match.",
                    hint: "Move the part after # into a \"#\" key of the same component.")
            }
        case .fragment:
            if bytes.first == UInt8(ascii: "#") {
                context.report(.patternNeverMatches, site.path, site.position,
                    "\(what) \"\(text)\" starts with \"#\", but the fragment compared is the text after the \"#\", so it never starts with one.",
                    hint: "Drop the leading \"#\": \"\(text.dropFirst())\".")
            }
        case .queryItemName, .queryItemValue:
            break
        }
    }

    /// `$(name)` references: unterminated, undefined, values that cannot match encoded URLs.
    private static func checkVariables(_ site: PatternSite, _ bytes: [UInt8], percentEncoded: Bool,
                                       _ context: inout ReadContext) {
        var i = 0
        while i + 1 < bytes.count {
            guard bytes[i] == UInt8(ascii: "$"), bytes[i + 1] == UInt8(ascii: "(") else { i += 1; continue }
            guard let close = bytes[(i + 2)...].firstIndex(of: UInt8(ascii: ")")) else {
                context.report(.substUnterminated, site.path, site.position,
                    "The pattern \"\(site.text)\" opens a substitution variable with \"$(\" but never closes it with \")\".",
                    hint: "Write $(name) with the closing parenthesis.")
                return
            }
            let name = String(decoding: bytes[(i + 2)..<close], as: UTF8.self)
            i = close + 1
            context.referencedVariables.insert(name)
            if let values = context.variables[name] {
                if percentEncoded, let value = values.first(where: { $0.utf8.contains { $0 >= 0x80 } }) {
                    context.report(.nonASCIIPatternEncoded, site.path, site.position,
                        "The variable $(\(name)) used in \"\(site.text)\" has the non-ASCII value \"\(value)\", which can never match a percent-encoded URL.",
                        hint: "Add \"percentEncoded\": false to the rule (iOS 14+), or percent-encode the value.")
                }
            } else if !builtinVariables.contains(name) {
                let suggestion = KeySuggestion.nearest(to: name, among: Array(context.variables.keys).sorted() + builtinVariables.sorted())
                context.report(.substUndefined, site.path, site.position,
                    "The pattern \"\(site.text)\" uses $(\(name)), but no substitution variable has that name\(suggestion.map { " (did you mean $(\($0)))?" } ?? "")" + "; the rule then matches nothing.",
                    hint: "Define \"\(name)\" in applinks.substitutionVariables, or fix the name (names are case-sensitive).")
            }
        }
    }

    private static func description(of site: PatternSite) -> String {
        switch site.kind {
        case .path: site.legacy ? "The legacy path" : "The path pattern"
        case .query: "The query pattern"
        case .fragment: "The fragment pattern"
        case .queryItemName: "The query item name"
        case .queryItemValue: "The query item pattern"
        }
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
    }

    static func containsPercentEscape(_ bytes: [UInt8]) -> Bool {
        var i = 0
        while i + 2 < bytes.count {
            if bytes[i] == UInt8(ascii: "%") && isHex(bytes[i + 1]) && isHex(bytes[i + 2]) { return true }
            i += 1
        }
        return false
    }

    /// `?name=` inside a path pattern: someone pasted a URL with its query.
    private static func looksLikeQuery(_ bytes: [UInt8]) -> Bool {
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "?") {
                var j = i + 1
                while j < bytes.count, isNameByte(bytes[j]) { j += 1 }
                if j > i + 1, j < bytes.count, bytes[j] == UInt8(ascii: "=") { return true }
            }
            i += 1
        }
        return false
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "["), UInt8(ascii: "]"):
            true
        default:
            false
        }
    }
}
