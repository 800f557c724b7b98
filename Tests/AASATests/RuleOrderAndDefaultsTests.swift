import Testing
@testable import AASA

/// Rule order, exclusion, the defaults hierarchy and the app side of a document (aasa-spec.md §6, §7, §9, §12).
struct RuleOrderAndDefaultsTests {
    typealias B = DocumentBuilder

    @Test func firstMatchingRuleDecides() {
        let rules = [B.rule("/help/website/*", exclude: true), B.rule("/help/*")]
        #expect(B.compiled(rules).decide(url: "https://example.com/help/website/x", appID: B.app) == .exclude(entry: 0, rule: 0))
        #expect(B.compiled(rules).decide(url: "https://example.com/help/app", appID: B.app) == .match(entry: 0, rule: 1))
        let reversed = [B.rule("/help/*"), B.rule("/help/website/*", exclude: true)]
        #expect(B.compiled(reversed).decide(url: "https://example.com/help/website/x", appID: B.app) == .match(entry: 0, rule: 0),
                "an exclusion after a broader rule is never reached")
        #expect(B.compiled(rules).decide(url: "https://example.com/other", appID: B.app) == .noMatch)
    }

    @Test func exclusionStopsLaterEntriesForThatApp() {
        let doc = B.document([
            B.entry([B.app], [B.rule("/private/*", exclude: true)]),
            B.entry([B.app], [B.rule("*")]),
        ])
        let compiled = CompiledDocument(doc)
        #expect(compiled.decide(url: "https://example.com/private/1", appID: B.app) == .exclude(entry: 0, rule: 0))
        #expect(compiled.decide(url: "https://example.com/public", appID: B.app) == .match(entry: 1, rule: 0),
                "no decision in the first entry continues into the next")
    }

    @Test func defaultsHierarchy() {
        // rule → entry defaults → applinks defaults → built-in
        let upper = "https://example.com/BUY/1"
        #expect(B.outcome(upper, [B.rule("/buy/*")]) == "no_match")
        #expect(B.outcome(upper, [B.rule("/buy/*")], defaults: RuleSettings(caseSensitive: false)) == "match")
        #expect(B.outcome(upper, [B.rule("/buy/*")], entryDefaults: RuleSettings(caseSensitive: false)) == "match")
        #expect(B.outcome(upper, [B.rule("/buy/*")], defaults: RuleSettings(caseSensitive: false),
                          entryDefaults: RuleSettings(caseSensitive: true)) == "no_match", "entry defaults win")
        #expect(B.outcome(upper, [B.rule("/buy/*", caseSensitive: true)],
                          entryDefaults: RuleSettings(caseSensitive: false)) == "no_match", "the rule wins")
    }

    @Test func defaultsCanCarryPatternsAndExclude() {
        // O-G defaults probes: "/" and "exclude" in defaults take effect.
        let pathDefault = RuleSettings(path: "/foo/*")
        #expect(B.outcome("https://example.com/foo/x", [B.rule(fragment: "*")], defaults: pathDefault) == "match")
        #expect(B.outcome("https://example.com/bar/x", [B.rule(fragment: "*")], defaults: pathDefault) == "no_match")
        #expect(B.outcome("https://example.com/a", [B.rule("/a")], defaults: RuleSettings(exclude: true)) == "exclude")
        #expect(B.outcome("https://example.com/a", [B.rule("/a", exclude: false)], defaults: RuleSettings(exclude: true)) == "match")
        #expect(B.outcome("https://example.com/a?x=1", [B.rule("/a")], defaults: RuleSettings(query: B.items(["x": "2"])))
                == "no_match")
        #expect(B.outcome("https://example.com/caf%C3%A9", [B.rule("/café")],
                          defaults: RuleSettings(percentEncoded: false)) == "match")
    }

    @Test func legacyRulesIgnoreDefaults() {
        let rules = B.legacy(["/buy/*"])
        #expect(B.outcome("https://example.com/BUY/1", rules, defaults: RuleSettings(caseSensitive: false)) == "no_match")
    }

    @Test func legacyNotExcludes() {
        let rules = B.legacy(["NOT /videos/wwdc/2010/*", "/videos/wwdc/201?/*", "NOT /videos/*", "*"])
        #expect(B.outcome("https://example.com/videos/wwdc/2010/x", rules) == "exclude")
        #expect(B.outcome("https://example.com/videos/wwdc/2015/x", rules) == "match")
        #expect(B.outcome("https://example.com/videos/other", rules) == "exclude")
        #expect(B.outcome("https://example.com/anything?q#f", rules) == "match", "query and fragment are ignored")
    }

    @Test func appsInFileOrder() {
        let doc = B.document([
            B.entry(["T.one"], [B.rule("/one/*")]),
            B.entry(["T.two", "T.three"], [B.rule("/shared/*")]),
            B.entry(["T.one"], [B.rule("/shared/*")]),
            B.entry(["T.four"], [B.rule("/shared/x", exclude: true), B.rule("*")]),
        ])
        let compiled = CompiledDocument(doc)
        #expect(compiled.apps(for: "https://example.com/shared/y").map(\.appID) == ["T.two", "T.three", "T.one", "T.four"])
        #expect(compiled.apps(for: "https://example.com/shared/x").map(\.appID) == ["T.two", "T.three", "T.one"],
                "an exclusion only blocks its own app")
        #expect(compiled.apps(for: "https://example.com/one/1").map(\.appID) == ["T.one", "T.four"])
        #expect(compiled.apps(for: "ftp://example.com/one/1").isEmpty, "only http and https are universal links")
        #expect(compiled.apps(for: "HTTP://example.com/one/1").map(\.appID) == ["T.one", "T.four"])
        #expect(compiled.decide(url: "https://example.com/one/1", appID: "T.unknown") == .noMatch)
    }

    @Test func entryWithoutRulesOrAppsMatchesNothing() {
        let doc = B.document([B.entry([B.app], []), B.entry([], [B.rule("*")])])
        #expect(CompiledDocument(doc).decide(url: "https://example.com/", appID: B.app) == .noMatch)
        #expect(CompiledDocument(doc).apps(for: "https://example.com/").isEmpty)
    }
}
