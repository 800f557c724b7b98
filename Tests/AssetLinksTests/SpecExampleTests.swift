import AssetLinks
import Testing

/// The worked examples of assetlinks-spec.md §5, each URL with its deciding rule and result.
@Suite struct SpecExampleTests {
    static let fingerprint = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    static func file(rules: String, package: String = "com.example.shop") -> String {
        """
        [{"relation": ["delegate_permission/common.handle_all_urls"],
          "target": {"namespace": "android_app", "package_name": "\(package)",
                     "sha256_cert_fingerprints": ["\(fingerprint)"]},
          "relation_extensions": {"delegate_permission/common.handle_all_urls": {
            "dynamic_app_link_components": \(rules)}}}]
        """
    }

    static let shopRules = """
        [{"/": "/account/*", "exclude": true},
         {"/": "/p/*/print", "exclude": true},
         {"?": {"utm_source": "app"}},
         {"/": "/p/*"},
         {"#": "open"},
         {"/": "/orders", "?": {"id": "?*"}},
         {"/": "*", "exclude": true}]
        """

    static func matcher(_ text: String) throws -> AppLinkMatcher {
        let reading = AssetLinksReader.read(Array(text.utf8))
        return AppLinkMatcher(try #require(reading.file))
    }

    struct Example: Sendable, CustomTestStringConvertible {
        var path: String
        var decision: String
        var rule: Int?
        var testDescription: String { path }
    }

    static let shop: [Example] = [
        Example(path: "/account/settings", decision: "exclude", rule: 1),                 // 1
        Example(path: "/account", decision: "exclude", rule: 7),                          // 2
        Example(path: "/account/login?utm_source=app", decision: "exclude", rule: 1),     // 3
        Example(path: "/p/12/print", decision: "exclude", rule: 2),                       // 4
        Example(path: "/p/12/v2/print", decision: "match", rule: 4),                      // 5
        Example(path: "/sale?lang=en&utm_source=app", decision: "match", rule: 3),        // 6
        Example(path: "/help#open", decision: "match", rule: 5),                          // 7
        Example(path: "/help#Open", decision: "exclude", rule: 7),                        // 8
        Example(path: "/orders?id=", decision: "exclude", rule: 7),                       // 9
        Example(path: "/orders?id=77", decision: "match", rule: 6),                       // 9
        Example(path: "/p/caf%C3%A9", decision: "match", rule: 4),                        // 10
    ]

    @Test(arguments: shop)
    func shopExample(_ example: Example) throws {
        let matcher = try Self.matcher(Self.file(rules: Self.shopRules))
        let url = AndroidURL("https://shop.example.com" + example.path)
        let decision = matcher.decide(url, packageName: "com.example.shop")
        #expect(decision.name == example.decision)
        #expect(decision.rule.map { $0 + 1 } == example.rule)
        #expect(decision.opensApp == (example.decision == "match"))
        // Example 11: on Android 14 the rules are ignored and the host-only manifest opens everything.
        let older = matcher.decide(url, packageName: "com.example.shop", androidVersion: 14)
        #expect(older == .verified(statement: 0) && older.opensApp)
    }

    @Test func excludeEverythingFirstMakesLaterRulesUnreachable() throws {
        let text = Self.file(rules: #"[{"/": "*", "exclude": true}, {"/": "/promo"}]"#)
        let decision = try Self.matcher(text).decide(AndroidURL("https://h.example/promo"), packageName: "com.example.shop")
        #expect(decision == .exclude(statement: 0, rule: 0))
        let report = AssetLinksValidator.validate(Array(text.utf8))
        #expect(report.findings.contains { $0.code == "dynamic-rule-unreachable" && $0.location?.pointer.hasSuffix("/1") == true })
    }

    @Test func noRuleMatchingMeansNotOpened() throws {
        let decision = try Self.matcher(Self.file(rules: #"[{"/": "/a"}, {"/": "/b"}]"#))
            .decide(AndroidURL("https://h.example/c"), packageName: "com.example.shop")
        #expect(decision == .noMatch(statement: 0))
        #expect(!decision.opensApp)
    }

    @Test func anEmptyPatternDropsEveryRule() throws {
        let text = Self.file(rules: #"[{"/": "/login", "exclude": true}, {"/": ""}, {"/": "*"}]"#)
        let decision = try Self.matcher(text).decide(AndroidURL("https://h.example/login"), packageName: "com.example.shop")
        guard case .rulesDropped(let statement, let reason) = decision else {
            Issue.record("expected rules_dropped, got \(decision)")
            return
        }
        #expect(statement == 0 && reason != nil)
        #expect(decision.opensApp)
        #expect(AssetLinksValidator.validate(Array(text.utf8)).findings.contains {
            $0.code == "dynamic-rules-invalid" && $0.location?.pointer == "/0/relation_extensions/delegate_permission~1common.handle_all_urls/dynamic_app_link_components/1/~1"
        })
    }

    @Test func nonBacktrackingStarMissesWhereAnAppleGlobWouldMatch() throws {
        let text = Self.file(rules: #"[{"/": "/docs/*/guide", "exclude": true}, {"/": "*"}]"#)
        let decision = try Self.matcher(text).decide(AndroidURL("https://h.example/docs/a/b/guide"), packageName: "com.example.shop")
        #expect(decision == .match(statement: 0, rule: 1))
    }

    @Test func verificationComesFirst() throws {
        let matcher = try Self.matcher(Self.file(rules: Self.shopRules))
        #expect(matcher.decide(AndroidURL("https://h.example/p/1"), packageName: "com.other") == .notVerified)
        #expect(matcher.decide(AndroidURL("https://h.example/p/1"), packageName: "com.example.shop",
                               fingerprint: "AA:" + Self.fingerprint.dropFirst(3)) == .notVerified)
        #expect(matcher.decide(AndroidURL("https://h.example/p/1"), packageName: "com.example.shop",
                               fingerprint: Self.fingerprint.lowercased()) == .match(statement: 0, rule: 3))
        #expect(matcher.decide(AndroidURL("mailto:x@h.example"), packageName: "com.example.shop") == .notVerified)
    }

    @Test func noRulesMeansTheManifestDecides() throws {
        let text = #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.shop", "sha256_cert_fingerprints": ["\#(Self.fingerprint)"]}}]"#
        let decision = try Self.matcher(text).decide(AndroidURL("https://h.example/anything"), packageName: "com.example.shop")
        #expect(decision == .rulesDropped(statement: nil, reason: nil))
        #expect(decision.name == "rules_dropped")
    }
}
