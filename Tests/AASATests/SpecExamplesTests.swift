import Testing
@testable import AASA

/// The worked examples aasa-spec.md §12 lists, as documents built in code (the same shape the parser
/// gives for their JSON). Where the spec quotes the JSON or a result, the test uses it verbatim.
struct SpecExamplesTests {
    typealias B = DocumentBuilder

    /// Apple's overview file (Supporting associated domains / applinks page): one entry for two apps,
    /// an exclusion by fragment, /buy/*, an exclusion under /help/website/, /help/* with a 4-character
    /// articleNumber; plus webcredentials and appclips.
    static let overview = B.document([
        B.entry(["ABCDE12345.com.example.app", "ABCDE12345.com.example.app2"], [
            B.rule(fragment: "no_universal_links", exclude: true),
            B.rule("/buy/*"),
            B.rule("/help/website/*", exclude: true),
            B.rule("/help/*", query: B.items(["articleNumber": "????"])),
        ]),
    ], services: ["webcredentials": ["ABCDE12345.com.example.app"], "appclips": ["ABCED12345.com.example.MyApp.Clip"]])

    @Test(arguments: [
        ("https://example.com/buy/shoes", "match"),
        ("https://example.com/buy/shoes#no_universal_links", "exclude"),
        ("https://example.com/help/website/faq", "exclude"),
        ("https://example.com/help/website/faq?articleNumber=1234", "exclude"),
        ("https://example.com/help/app?articleNumber=1234", "match"),
        ("https://example.com/help/app?articleNumber=12345", "no_match"),
        ("https://example.com/help/app", "no_match"),
        ("https://example.com/sell/shoes", "no_match"),
    ])
    func appleOverviewFile(_ url: String, _ expected: String) {
        let compiled = CompiledDocument(Self.overview)
        #expect(compiled.decide(url: url, appID: "ABCDE12345.com.example.app").name == expected)
        #expect(compiled.decide(url: url, appID: "ABCDE12345.com.example.app2").name == expected, "appIDs share the rules")
        #expect(compiled.decide(url: url, appID: "ABCED12345.com.example.MyApp.Clip").name == "no_match",
                "appclips apps get no universal links from applinks")
    }

    /// WWDC19 session 717 components: the coupon rule `{"/": "", "#": "coupon-????"}` shown matching
    /// `https://example.com#coupon-5678` (S19J), the lunch/taco query rule and the `/*/order/` path
    /// whose match needs backtracking (§8.1).
    @Test func wwdc19LunchTacoCoupon() {
        let compiled = B.compiled([
            B.rule("/", query: B.items(["lunch": "taco"]), fragment: "*"),
            B.rule("/*/order/*"),
            B.rule("", fragment: "coupon-????"),
        ])
        let outcome = { (url: String) in compiled.decide(url: url, appID: B.app) }
        #expect(outcome("https://example.com#coupon-5678") == .match(entry: 0, rule: 2))
        #expect(outcome("https://example.com/#coupon-5678") == .match(entry: 0, rule: 2))
        #expect(outcome("https://example.com#coupon-567") == .noMatch, "???? is exactly four")
        #expect(outcome("https://example.com/?lunch=taco") == .match(entry: 0, rule: 0))
        #expect(outcome("https://example.com/?drink=soda&lunch=taco") == .match(entry: 0, rule: 0))
        #expect(outcome("https://example.com/?lunch=taco&lunch=salad") == .noMatch, "every lunch item must be taco")
        #expect(outcome("https://example.com/?lunch=Taco") == .noMatch, "case-sensitive by default")
        #expect(outcome("https://example.com/tacos/order/42") == .match(entry: 0, rule: 1))
        #expect(outcome("https://example.com/a/b/order/") == .match(entry: 0, rule: 1))
    }

    /// The 2016 legacy listing: `paths` with `NOT ` exclusions, evaluated in order (§11).
    @Test func legacyNotListing() {
        let doc = B.document([
            B.entry(["9JA89QQLNQ.com.apple.wwdc"], B.legacy(["/wwdc/news/", "/videos/wwdc/2015/*"]), source: .paths),
            B.entry(["ABCD1234.com.apple.wwdc"], B.legacy(["NOT /videos/wwdc/2010/*", "*"]), source: .paths),
        ])
        let compiled = CompiledDocument(doc)
        #expect(compiled.apps(for: "https://example.com/wwdc/news/").map(\.appID) == ["9JA89QQLNQ.com.apple.wwdc", "ABCD1234.com.apple.wwdc"])
        #expect(compiled.apps(for: "https://example.com/videos/wwdc/2010/a").map(\.appID) == [])
        #expect(compiled.decide(url: "https://example.com/videos/wwdc/2010/a", appID: "ABCD1234.com.apple.wwdc")
                == .exclude(entry: 1, rule: 0))
        #expect(compiled.apps(for: "https://example.com/videos/wwdc/2015/a").first?.appID == "9JA89QQLNQ.com.apple.wwdc",
                "the first entry in the file wins")
        #expect(compiled.decide(url: "https://example.com/wwdc/news", appID: "9JA89QQLNQ.com.apple.wwdc")
                == .match(entry: 0, rule: 0), "trailing slash insignificant")
        #expect(compiled.decide(url: "https://example.com/foo/x/bar/2019/mypage", appID: "ABCD1234.com.apple.wwdc")
                == .match(entry: 1, rule: 1))
        let combined = B.compiled(B.legacy(["/foo/*/bar/201?/mypage"]))
        #expect(combined.decide(url: "https://example.com/foo/a/b/bar/2015/mypage", appID: B.app) == .match(entry: 0, rule: 0))
        #expect(combined.decide(url: "https://example.com/foo/a/bar/20155/mypage", appID: B.app) == .noMatch)
    }

    /// WWDC20 session 10098: `"/$(lang)_$(region)/$(food)/"` with a food list, Canada excluded, a
    /// case-insensitive sourdough rule, and Unicode paths with percentEncoded false, plus defaults.
    static let food = B.document([
        B.entry([B.app], [
            B.rule("/$(lang)_CA/*", exclude: true),
            B.rule("/$(lang)_$(region)/$(food)/"),
            B.rule("/sourdough/*", caseSensitive: false),
            B.rule("/cafés/*", percentEncoded: false),
        ], defaults: RuleSettings(percentEncoded: true)),
    ], defaults: RuleSettings(caseSensitive: true),
       variables: ["food": ["burrito", "pizza", "sushi", "samosa"]])

    @Test(arguments: [
        ("https://example.com/en_US/pizza/", "match"),
        ("https://example.com/fr_FR/sushi", "match"),
        ("https://example.com/de_CH/samosa/", "match"),
        ("https://example.com/en_CA/pizza/", "exclude"),
        ("https://example.com/fr_CA/burrito/", "exclude"),
        ("https://example.com/en_UK/pizza/", "no_match"),
        ("https://example.com/en_GB/pizza/", "match"),
        ("https://example.com/en_US/pasta/", "no_match"),
        ("https://example.com/en_US/Pizza/", "no_match"),
        ("https://example.com/xx_US/pizza/", "no_match"),
        ("https://example.com/SourDough/starter", "match"),
        ("https://example.com/sourdough", "match"),
        ("https://example.com/caf%C3%A9s/paris", "match"),
        ("https://example.com/cafés/paris", "match"),
        ("https://example.com/CAF%C3%89S/paris", "no_match"),
    ])
    func wwdc20FoodAndCanada(_ url: String, _ expected: String) {
        #expect(CompiledDocument(Self.food).decide(url: url, appID: B.app).name == expected)
    }

    @Test func wwdc20UnicodeRulesNeedPercentEncodedFalse() {
        // A non-ASCII pattern with the default percentEncoded true never matches (§8.2).
        #expect(B.outcome("https://example.com/%E6%97%A5%E6%9C%AC", [B.rule("/日本")]) == "no_match")
        #expect(B.outcome("https://example.com/%E6%97%A5%E6%9C%AC", [B.rule("/日本", percentEncoded: false)]) == "match")
        #expect(B.outcome("https://example.com/%E6%97%A5%E6%9C%AC", [B.rule("/??", percentEncoded: false)]) == "match",
                "two code points")
        #expect(B.outcome("https://example.com/%E6%97%A5%E6%9C%AC", [B.rule("/??")]) == "no_match",
                "eighteen encoded characters")
        #expect(B.outcome("https://example.com/%E6%97%A5%E6%9C%AC", [B.rule("/日本")],
                          defaults: RuleSettings(percentEncoded: false)) == "match", "defaults set it for every rule")
    }

    @Test func section16Misreadings() {
        #expect(B.outcome("https://example.com/a/b.c/d", [B.rule("/a/*")]) == "match", "* spans / and .")
        #expect(B.outcome("https://example.com/abc", [B.rule("abc")]) == "match", "leading / optional")
        #expect(B.outcome("https://example.com/?id=42&id=7", [B.rule(query: B.items(["id": "42"]))]) == "no_match",
                "every occurrence must match")
        #expect(B.outcome("https://example.com/", [B.rule(query: B.items(["id": "*"]))]) == "match",
                "a missing item is the empty string")
        #expect(B.outcome("https://example.com/caf%C3%A9", [B.rule("/caf%C3%A9", percentEncoded: true)]) == "match",
                "true compares the encoded text")
        #expect(B.outcome("https://example.com/x?y", [B.rule("/x", query: .voided)]) == "match",
                "a non-string value voids the dictionary")
        #expect(B.outcome("https://example.com/pizza", [B.rule("/$(food)")], variables: ["food": ["pizza"]]) == "match",
                "$(…) is an alternation")
        #expect(B.outcome("https://example.com/$(food)", [B.rule("/$(food)")], variables: ["food": ["pizza"]]) == "no_match")
    }
}
