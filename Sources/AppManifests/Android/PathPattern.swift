/// A path attribute of an intent filter's `<data>` element, and a path it matches.
public enum PathPattern: Hashable, Sendable, CustomStringConvertible {
    /// `android:path`: exactly this path.
    case path(String)
    /// `android:pathPrefix`.
    case prefix(String)
    /// `android:pathSuffix` (Android 12+).
    case suffix(String)
    /// `android:pathPattern`: PatternMatcher's simple glob — `.` any character, `*` any number of
    /// the character before it, `\` escapes.
    case pattern(String)
    /// `android:pathAdvancedPattern` (Android 12+): also `[…]` classes, `+` and `{m,n}`.
    case advancedPattern(String)

    public var attribute: String {
        switch self {
        case .path: "path"
        case .prefix: "pathPrefix"
        case .suffix: "pathSuffix"
        case .pattern: "pathPattern"
        case .advancedPattern: "pathAdvancedPattern"
        }
    }

    public var text: String {
        switch self {
        case .path(let t), .prefix(let t), .suffix(let t), .pattern(let t), .advancedPattern(let t): t
        }
    }

    public var description: String { "\(attribute)=\"\(text)\"" }

    /// A path this pattern matches, to watch as an example URL; nil when none can be written
    /// (a pattern we cannot read, or one whose paths do not start with `/`).
    public var example: String? {
        let made: String?
        switch self {
        case .path(let t), .prefix(let t): made = t
        case .suffix(let t): made = t.hasPrefix("/") ? t : "/example" + t
        case .pattern(let t): made = Self.example(simpleGlob: t)
        case .advancedPattern(let t): made = Self.example(advancedGlob: t)
        }
        guard let made, made.hasPrefix("/") else { return nil }
        return made
    }

    /// Zero repetitions for every `*`: PatternMatcher does not backtrack, so `.*` followed by text
    /// only matches reliably when the `.*` takes nothing. In the manifest a backslash is written
    /// doubled (aapt reads `\\` as one), so both spellings escape.
    static func example(simpleGlob pattern: String) -> String? {
        var out = ""
        var chars = Array(pattern)[...]
        while let c = chars.popFirst() {
            var piece: Character = c
            var literal = false
            if c == "\\" {
                if chars.first == "\\" { chars = chars.dropFirst() }
                guard let next = chars.popFirst() else { return nil }
                piece = next
                literal = true
            }
            if chars.first == "*" {
                chars = chars.dropFirst()
                continue
            }
            out.append(!literal && piece == "." ? "x" : piece)
        }
        return out
    }

    /// `{m}` repetitions an example is written with at most; real manifests use a handful.
    static let maxExampleRepetitions = 256

    /// The advanced glob: each atom (literal, `.`, `[class]`) with its quantifier (`*`, `+`,
    /// `{m}`, `{m,n}`) taken the fewest times allowed.
    static func example(advancedGlob pattern: String) -> String? {
        var out = ""
        var chars = Array(pattern)[...]
        while let c = chars.popFirst() {
            let atom: Character
            switch c {
            case "\\":
                if chars.first == "\\" { chars = chars.dropFirst() }
                guard let next = chars.popFirst() else { return nil }
                atom = next
            case ".":
                atom = "x"
            case "[":
                guard let close = chars.firstIndex(of: "]") else { return nil }
                let body = chars[chars.startIndex..<close]
                chars = chars[chars.index(after: close)...]
                guard let chosen = member(ofClass: body) else { return nil }
                atom = chosen
            case "*", "+", "{", "}", "]":
                return nil
            default:
                atom = c
            }
            var count = 1
            switch chars.first {
            case "*":
                chars = chars.dropFirst()
                count = 0
            case "+":
                chars = chars.dropFirst()
            case "{":
                guard let close = chars.firstIndex(of: "}") else { return nil }
                let body = String(chars[chars.index(after: chars.startIndex)..<close])
                chars = chars[chars.index(after: close)...]
                // A negative count would trap in String(repeating:count:), a huge one exhaust memory;
                // neither makes an example URL anyone would watch.
                guard let least = Int(body.split(separator: ",", omittingEmptySubsequences: false).first ?? ""),
                      (0...Self.maxExampleRepetitions).contains(least) else { return nil }
                count = least
            default:
                break
            }
            out += String(repeating: String(atom), count: count)
        }
        return out
    }

    /// A character the class `[…]` (without brackets) accepts: its first member, or for `[^…]` the
    /// first of a few ordinary characters it does not exclude.
    static func member(ofClass body: ArraySlice<Character>) -> Character? {
        let items = Array(body)
        if items.first == "^" {
            let excluded = Array(items.dropFirst())
            return Array("xa0-_").first { candidate in !contains(excluded, candidate) }
        }
        guard let first = items.first else { return nil }
        return first == "\\" ? items.dropFirst().first : first
    }

    private static func contains(_ items: [Character], _ c: Character) -> Bool {
        var i = 0
        while i < items.count {
            if i + 2 < items.count, items[i + 1] == "-" {
                if items[i] <= c && c <= items[i + 2] { return true }
                i += 3
            } else {
                if items[i] == c { return true }
                i += 1
            }
        }
        return false
    }
}
