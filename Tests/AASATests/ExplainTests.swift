import Testing
@testable import AASA

/// `explain(url:appID:)`: deciding rule, setting sources, closest miss and its failing component.
struct ExplainTests {
    typealias B = DocumentBuilder

    static let document = B.document([
        B.entry([B.app], [
            B.rule(fragment: "no_universal_links", exclude: true),
            B.rule("/buy/*"),
            B.rule("/help/*", query: B.items(["articleNumber": "????"])),
        ], defaults: RuleSettings(caseSensitive: false)),
    ], defaults: RuleSettings(percentEncoded: true))

    @Test func matchNamesRuleAndSettingSources() {
        let explanation = CompiledDocument(Self.document).explain(url: "https://example.com/BUY/42", appID: B.app)
        #expect(explanation.decision == .match(entry: 0, rule: 1))
        let rule = explanation.decidingRule
        #expect(rule?.text == "{\"/\": \"/buy/*\", \"caseSensitive\": false}")
        let sources = Dictionary(uniqueKeysWithValues: (rule?.settings ?? []).map { ($0.key, $0.source) })
        #expect(sources["/"] == .rule)
        #expect(sources["caseSensitive"] == .entryDefaults)
        #expect(sources["percentEncoded"] == .applinksDefaults)
        #expect(sources["exclude"] == .builtIn)
        #expect(explanation.summary.contains("opens this URL"))
        #expect(explanation.summary.contains("rule 2 of details entry 1"))
        #expect(explanation.trace.count == 2, "the exclusion was tried first")
    }

    @Test func exclusionIsExplained() {
        let explanation = CompiledDocument(Self.document).explain(url: "https://example.com/buy/1#no_universal_links",
                                                                  appID: B.app)
        #expect(explanation.decision == .exclude(entry: 0, rule: 0))
        #expect(explanation.summary.contains("excludes it"))
        #expect(explanation.decidingRule?.checks.map(\.component) == ["fragment"])
    }

    @Test func missNamesClosestRuleAndFailingQueryItem() {
        let explanation = CompiledDocument(Self.document).explain(url: "https://example.com/help/x?articleNumber=123",
                                                                  appID: B.app)
        #expect(explanation.decision == .noMatch)
        let closest = explanation.closestRule
        #expect(closest?.rule == 2)
        let failing = closest?.checks.filter { !$0.matched } ?? []
        #expect(failing.map(\.component) == ["query item"])
        #expect(failing.first?.itemName == "articleNumber")
        #expect(failing.first?.explanation.contains("\"123\"") == true)
        #expect(explanation.summary.contains("Closest: rule 3 of details entry 1"))
    }

    @Test func absentAndRepeatedItemsAreWordedPlainly() {
        let compiled = B.compiled([B.rule(query: B.items(["id": "42"]))])
        let absent = compiled.explain(url: "https://example.com/", appID: B.app)
        #expect(absent.closestRule?.checks.first?.explanation.contains("absent") == true)
        let repeated = compiled.explain(url: "https://example.com/?id=42&id=7", appID: B.app)
        #expect(repeated.closestRule?.checks.first?.explanation.contains("occurs 2 times") == true)
        #expect(repeated.closestRule?.checks.first?.explanation.contains("\"7\"") == true)
    }

    @Test func hintsSayWhichSettingWouldHelp() {
        let cased = B.compiled([B.rule("/buy/*")]).explain(url: "https://example.com/Buy/1", appID: B.app)
        #expect(cased.summary.contains("caseSensitive"))
        let encoded = B.compiled([B.rule("/café")]).explain(url: "https://example.com/caf%C3%A9", appID: B.app)
        #expect(encoded.summary.contains("percentEncoded"))
        let whole = B.compiled([B.rule(query: .string("a=1"))]).explain(url: "https://example.com/?a=1&b=2", appID: B.app)
        #expect(whole.summary.contains("whole query string"))
        let undefined = B.compiled([B.rule("/$(food)")]).explain(url: "https://example.com/pizza", appID: B.app)
        #expect(undefined.summary.contains("$(food) is not defined"))
        let plain = B.compiled([B.rule("/buy/*")]).explain(url: "https://example.com/sell/1", appID: B.app)
        #expect(!plain.summary.contains("would match"), "no hint when no setting would help")
    }

    @Test func unlistedAppAndSchemeAndDomain() {
        let compiled = CompiledDocument(Self.document)
        #expect(compiled.explain(url: "https://example.com/buy/1", appID: "ABCDE12345.other").summary.contains("not listed"))
        #expect(compiled.explain(url: "mailto:x@example.com", appID: B.app).summary.contains("http and https"))
        let elsewhere = compiled.explain(url: "https://other.com/buy/1", appID: B.app, domain: "example.com")
        #expect(elsewhere.decision == .noMatch)
        #expect(elsewhere.summary.contains("other.com"))
        #expect(compiled.explain(url: "https://www.example.com/buy/1", appID: B.app, domain: "example.com").decision
                == .match(entry: 0, rule: 1), "a subdomain can use the parent's file (wildcard entitlement)")
    }

    @Test func legacyRuleSourcesAreFixed() {
        let compiled = CompiledDocument(B.document([B.entry([B.app], B.legacy(["NOT /a/*", "*"]), source: .paths)]))
        let explanation = compiled.explain(url: "https://example.com/a/1", appID: B.app)
        #expect(explanation.decision == .exclude(entry: 0, rule: 0))
        #expect(explanation.decidingRule?.legacyPath == "NOT /a/*")
        #expect(explanation.decidingRule?.settings.allSatisfy { $0.source == .legacyPath } == true)
        #expect(explanation.summary.contains("legacy path \"NOT /a/*\""))
    }
}
