import Testing
@testable import AASA

/// The validator calls a rule unreachable or a catch-all only when the matcher agrees: an empty
/// pattern (or a path of only slashes) matches just the empty text or the root path, not everything.
struct RuleReachabilityTests {
    static let app = "ABCDE12345.com.example.app"

    static func report(_ components: String) -> ValidationReport {
        AASAValidator.validate(Array(#"{"applinks": {"details": [{"appIDs": ["\#(app)"], "components": \#(components)}]}}"#.utf8))
    }

    static func codes(_ components: String) -> Set<String> {
        Set(report(components).findings.map(\.code))
    }

    @Test func rootPathIsNotACatchAll() {
        let components = #"[{"/": "/"}, {"/": "/about"}]"#
        #expect(!Self.codes(components).contains("unreachable-rule"))
        #expect(!Self.codes(components).contains("catch-all-rule"))
        let compiled = Self.report(components).document.map(CompiledDocument.init)
        #expect(compiled?.decide(url: "https://example.com/about", appID: Self.app) == .match(entry: 0, rule: 1))
        #expect(compiled?.decide(url: "https://example.com/", appID: Self.app) == .match(entry: 0, rule: 0))
    }

    @Test func emptyFragmentOrQueryIsNotACatchAll() {
        #expect(!Self.codes(##"[{"#": ""}, {"/": "/x"}]"##).contains("unreachable-rule"))
        #expect(!Self.codes(#"[{"?": ""}, {"/": "/x"}]"#).contains("catch-all-rule"))
        #expect(!Self.codes(#"[{"?": {"a": ""}}, {"/": "/x"}]"#).contains("catch-all-rule"))
    }

    @Test func starsStillShadowLaterRules() {
        for catchAll in [#"{"/": "/*"}"#, #"{"/": "*"}"#, #"{}"#, ##"{"#": "*", "?": "**"}"##] {
            let codes = Self.codes("[\(catchAll), {\"/\": \"/about\"}]")
            #expect(codes.contains("unreachable-rule"), "\(catchAll)")
            #expect(codes.contains("catch-all-rule"), "\(catchAll)")
        }
    }
}
