import Testing
@testable import AASA

/// Path patterns: wildcards (aasa-spec.md §8.1), anchoring, and the slash normalisation of §8.4.
struct PathMatchingTests {
    typealias B = DocumentBuilder

    @Test(arguments: [
        // §8.1 wildcards
        PatternCase("/buy/*", "https://example.com/buy/42", true),
        PatternCase("/a/*", "https://example.com/a/b/c/d", true, "star spans slashes (§16)"),
        PatternCase("/*.html", "https://example.com/x/y.z/index.html", true, "star spans dots"),
        PatternCase("/id/????", "https://example.com/id/4812", true),
        PatternCase("/id/????", "https://example.com/id/48123", false),
        PatternCase("/id/?*", "https://example.com/id/", false, "?* needs one character"),
        PatternCase("/id/?*", "https://example.com/id/9", true),
        PatternCase("/*/order/", "https://example.com/shop/a/order/", true, "needs backtracking"),
        PatternCase("/*/order/*", "https://example.com/order/order/order/x", true),
        PatternCase("/a*b*c", "https://example.com/aXbYbZc", true),
        PatternCase("/a*b*c", "https://example.com/aXbYbZcd", false),
        PatternCase("/a**b", "https://example.com/ab", true),
        // anchoring
        PatternCase("abc", "https://example.com/abcd", false, "anchored at the end"),
        PatternCase("abc", "https://example.com/xabc", false, "anchored at the start"),
        // brackets and backslashes are plain characters (§8.1)
        PatternCase("/[a-z]", "https://example.com/[a-z]", true),
        PatternCase("/[a-z]", "https://example.com/b", false),
        PatternCase("/a\\*", "https://example.com/a\\x", true, "no escapes: \\ is literal, * is a wildcard"),
        // §8.4 rule 1: leading slash optional
        PatternCase("abc", "https://example.com/abc", true),
        PatternCase("buy/*", "https://example.com/buy/1", true),
        // rule 2: leading run of slashes is one
        PatternCase("//abc", "https://example.com/abc", true),
        PatternCase("///abc", "https://example.com/abc", true),
        // rule 3: trailing slashes insignificant on both sides
        PatternCase("/buy", "https://example.com/buy/", true),
        PatternCase("/buy/", "https://example.com/buy", true),
        PatternCase("/buy/", "https://example.com/buy//", true),
        // rule 4: final /* may match nothing, but only at the end
        PatternCase("/buy/*", "https://example.com/buy", true),
        PatternCase("/buy/*", "https://example.com/buy/", true),
        PatternCase("/buy/*", "https://example.com/buyer", false),
        PatternCase("/a/*/c", "https://example.com/a/c", false),
        PatternCase("/a/*/c", "https://example.com/a/b/c", true),
        PatternCase("/id/????", "https://example.com/id/481", false, "not 'append a slash'"),
        // rule 5: empty path is /
        PatternCase("/", "https://example.com", true),
        PatternCase("/", "https://example.com/", true),
        PatternCase("/", "https://example.com?x=1#y", true),
        PatternCase("", "https://example.com#frag", true, "empty pattern is / (uncertain, WWDC19 coupon)"),
        PatternCase("/", "https://example.com/a", false),
        PatternCase("*", "https://example.com", true),
        // suffix with a leading star: the canonical form needs a segment before /checkout (uncertain)
        PatternCase("*/checkout", "https://example.com/cart/checkout", true),
        PatternCase("*/checkout", "https://example.com/checkout", false),
        PatternCase("*checkout", "https://example.com/checkout", true),
    ])
    func pathPattern(_ row: PatternCase) {
        #expect(B.matches(row.url, B.rule(row.pattern)) == row.matches, "\(row.testDescription)")
    }

    @Test func pathIsComparedEncodedByDefault() {
        #expect(B.matches("https://example.com/caf%C3%A9", B.rule("/caf%C3%A9")))
        #expect(B.matches("https://example.com/caf%C3%A9", B.rule("/caf??????")), "one ? per encoded ASCII character")
        #expect(!B.matches("https://example.com/caf%C3%A9", B.rule("/caf?")))
        #expect(!B.matches("https://example.com/caf%C3%A9", B.rule("/café")), "non-ASCII pattern never matches encoded text")
        #expect(!B.matches("https://example.com/caf%c3%a9", B.rule("/caf%C3%A9")), "hex digits compared as text")
        #expect(!B.matches("https://example.com/a%2Fb", B.rule("/a/b")), "%2F is not a slash when encoded")
    }

    @Test func decodedMatchingCountsCodePoints() {
        let decoded = { (pattern: String) in B.rule(pattern, percentEncoded: false) }
        #expect(B.matches("https://example.com/caf%C3%A9", decoded("/café")))
        #expect(B.matches("https://example.com/caf%C3%A9", decoded("/caf?")), "one ? per code point")
        #expect(!B.matches("https://example.com/caf%C3%A9", decoded("/caf%C3%A9")), "the pattern is not decoded")
        #expect(B.matches("https://example.com/a%2Fb", decoded("/a/b")), "a decoded %2F is a slash")
        #expect(B.matches("https://example.com/a%20b", decoded("/a b")))
        #expect(!B.matches("https://example.com/a%20b", decoded("/a%20b")))
        #expect(B.matches("https://example.com/café", decoded("/café")), "a raw Unicode URL is encoded, then decoded")
        #expect(B.matches("https://example.com/%zz", decoded("/%zz")), "an invalid escape stays literal")
    }

    @Test func caseFolding() {
        #expect(!B.matches("https://example.com/BUY/1", B.rule("/buy/*")), "case-sensitive by default")
        #expect(B.matches("https://example.com/BUY/1", B.rule("/buy/*", caseSensitive: false)))
        #expect(B.matches("https://example.com/buy/1", B.rule("/BUY/*", caseSensitive: false)))
        #expect(B.matches("https://example.com/%C3%89T%C3%89", B.rule("/été", caseSensitive: false, percentEncoded: false)),
                "Unicode-aware folding when decoded")
        #expect(B.matches("https://example.com/caf%c3%a9", B.rule("/caf%C3%A9", caseSensitive: false)),
                "folding the whole encoded text folds escape hex digits too")
    }

    @Test func legacyPathsUseTheSameNormalisation() {
        let rules = B.legacy(["/buy/*"])
        #expect(B.outcome("https://example.com/buy", rules) == "match")
        #expect(B.outcome("https://example.com/buy/", rules) == "match")
        #expect(B.outcome("https://example.com/Buy/1", rules) == "no_match", "legacy paths are case-sensitive")
    }
}
