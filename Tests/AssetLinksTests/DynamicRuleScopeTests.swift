import AssetLinks
import Testing
import Vocabulary

/// `dynamic-rule-out-of-scope`: a rule whose path can match no path the app's manifest claims.
@Suite struct DynamicRuleScopeTests {
    static let package = "com.example.shop"

    static func file(_ rules: String) throws -> AssetLinksFile {
        let text = #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.shop", "sha256_cert_fingerprints": ["\#(SpecExampleTests.fingerprint)"]}, "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": \#(rules)}}}]"#
        return try #require(AssetLinksReader.read(Array(text.utf8)).file)
    }

    @Test func aRuleOutsideEveryClaimedPathIsReportedAtItsPath() throws {
        let file = try Self.file(#"[{"/": "/account/*", "exclude": true}, {"/": "/products/*"}, {"?": {"ref": "*"}}, {"/": "*"}]"#)
        let findings = DynamicRuleScope.findings(file, packageName: Self.package, claimed: [.prefix("/products")])
        #expect(findings.map(\.code) == ["dynamic-rule-out-of-scope"])
        #expect(findings.first?.severity == .warning)
        #expect(findings.first?.location?.pointer == "/0/relation_extensions/delegate_permission~1common.handle_all_urls/dynamic_app_link_components/0/~1",
                "\(findings.first?.location?.pointer ?? "")")
        #expect(findings.first?.message == #"Rule 1 {"/": "/account/*", "exclude": true} of com.example.shop can match no path the app's manifest claims (pathPrefix="/products"); Android checks the manifest first, so the rule never decides."#)
        // A manifest filter without paths claims every path; another package has no rules here.
        #expect(DynamicRuleScope.findings(file, packageName: Self.package, claimed: []).isEmpty)
        #expect(DynamicRuleScope.findings(file, packageName: "com.example.other", claimed: [.prefix("/products")]).isEmpty)
    }

    /// Reported only when certain: each kind of claimed path against literal and wildcard rules.
    @Test(arguments: [
        ("/products/1", ManifestPath.exact("/products/1"), true), ("/products/*", .exact("/products/1"), true),
        ("/account/*", .exact("/products/1"), false), ("/p?", .exact("/p1"), true),
        ("/products", .prefix("/products"), true), ("/product", .prefix("/products"), false),
        ("/pro*", .prefix("/products"), true), ("/account/*", .prefix("/products"), false), ("*", .prefix("/products"), true),
        ("/a.html", .suffix(".html"), true), ("/a.pdf", .suffix(".html"), false), ("/a/*", .suffix(".html"), true),
        ("/shop/*", .pattern(literalPrefix: "/shop/"), true), ("/blog/*", .pattern(literalPrefix: "/shop/"), false),
        ("/blog/*", .pattern(literalPrefix: ""), true),
    ])
    func eachKindOfClaimedPath(_ rule: String, _ claimed: ManifestPath, _ inScope: Bool) throws {
        let file = try Self.file(#"[{"/": "\#(rule)"}]"#)
        #expect(DynamicRuleScope.findings(file, packageName: Self.package, claimed: [claimed]).isEmpty == inScope, "\(rule) vs \(claimed)")
    }
}
