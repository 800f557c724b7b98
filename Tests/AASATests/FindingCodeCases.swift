import Vocabulary
import AASA
import Foundation

/// One input per finding code that must produce it (and, for document findings, at a given pointer).
/// `FindingCodeTests` runs them all and checks that together they cover `FindingCatalog.all`.
struct FindingCodeCase: Sendable, CustomStringConvertible {
    var code: String
    /// Where the finding must point; nil when the finding has no location (transport, entitlement).
    var pointer: String?
    var produce: @Sendable () throws -> [Finding]

    var description: String { code }

    static let app = "ABCDE12345.com.example.app"

    static func document(_ code: String, at pointer: String?, _ json: String) -> FindingCodeCase {
        FindingCodeCase(code: code, pointer: pointer) { AASAValidator.validate(Array(json.utf8)).findings }
    }

    static func bytes(_ code: String, at pointer: String?, _ bytes: @escaping @Sendable () throws -> [UInt8]) -> FindingCodeCase {
        FindingCodeCase(code: code, pointer: pointer) { AASAValidator.validate(try bytes()).findings }
    }

    /// An applinks file with one details entry around `components` (a JSON array text).
    static func rules(_ code: String, at pointer: String?, _ components: String, extra: String = "") -> FindingCodeCase {
        document(code, at: pointer, #"{"applinks": {"apps": [], "details": [{"appIDs": ["\#(app)"], "components": \#(components)}]\#(extra)}}"#)
    }

    static func transport(_ code: String, _ facts: TransportFacts) -> FindingCodeCase {
        FindingCodeCase(code: code, pointer: nil) { TransportValidator.findings(for: facts) }
    }

    static func entitlement(_ code: String, _ text: String, file: AASADocument? = nil, appID: String? = nil) -> FindingCodeCase {
        FindingCodeCase(code: code, pointer: nil) { EntitlementValidator.findings(for: text, file: file, appID: appID.map { try! AppID($0) }) }
    }

    static let goodBody = Array(#"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/a"}]}]}}"#.utf8)
    static let otherBody = Array(#"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/b"}]}]}}"#.utf8)
    static let wellKnownURL = "https://example.com/.well-known/apple-app-site-association"

    static func served(_ location: TransportFacts.Location = .wellKnown, url: String = wellKnownURL, status: Int = 200,
                       headers: [String: String] = ["content-type": "application/json"], body: [UInt8] = goodBody,
                       decodedSize: Int? = nil, tls: TLSFacts? = TLSFacts(trusted: true), failure: FetchFailure? = nil) -> TransportFacts {
        TransportFacts(location: location, url: url, status: status, headers: headers, body: body,
                       decodedSize: decodedSize, tls: tls, failure: failure)
    }

    static func evaluation(_ code: String, wellKnown: TransportFacts, root: TransportFacts? = nil, cdn: TransportFacts? = nil,
                           plain: TransportFacts? = nil) -> FindingCodeCase {
        FindingCodeCase(code: code, pointer: nil) {
            CheckEvaluation.evaluate(wellKnown: wellKnown, root: root, cdn: cdn, plainUserAgent: plain).findings
        }
    }

    /// A body of `size` bytes that is valid JSON (padding in a string).
    static func padded(to size: Int) -> [UInt8] {
        let head = Array(#"{"webcredentials": {"apps": ["ABCDE12345.com.example.app"]}, "padding": ""#.utf8)
        let tail = Array("\"}".utf8)
        return head + [UInt8](repeating: UInt8(ascii: "x"), count: size - head.count - tail.count) + tail
    }
}

extension FindingCodeCase {
    static let all: [FindingCodeCase] = transportCases + byteCases + documentCases + ruleCases + variableCases + entitlementCases

    static let transportCases: [FindingCodeCase] = [
        transport("not-https", served(url: "http://example.com/.well-known/apple-app-site-association")),
        transport("tls-untrusted", served(tls: TLSFacts(trusted: false, failureReason: "self-signed certificate"))),
        transport("redirect-not-allowed", served(status: 301, headers: ["location": "https://www.example.com/.well-known/apple-app-site-association"])),
        evaluation("redirect-followed", wellKnown: served(status: 308, headers: ["location": "https://www.example.com/.well-known/apple-app-site-association"]),
                   cdn: served(.cdn, url: "https://app-site-association.cdn-apple.com/a/v1/example.com",
                               headers: ["apple-from": wellKnownURL + ", https://www.example.com/.well-known/apple-app-site-association"])),
        transport("http-status", served(status: 404)),
        transport("content-type-not-json", served(headers: ["content-type": "text/html"])),
        transport("cdn-failure", served(.cdn, url: "https://app-site-association.cdn-apple.com/a/v1/example.com", status: 404,
                                        headers: ["apple-failure-reason": "SWCERR00101 Bad HTTP Response: 403 Forbidden"])),
        transport("fetch-failed", TransportFacts(location: .wellKnown, url: wellKnownURL, failure: FetchFailure(kind: .dns, message: "no such host"))),
        transport("address-refused", TransportFacts(location: .wellKnown, url: wellKnownURL,
                                                    failure: FetchFailure(kind: .addressRefused, message: "10.0.0.1 is private"))),
        evaluation("root-path-deprecated", wellKnown: served(status: 404),
                   root: served(.root, url: "https://example.com/apple-app-site-association")),
        evaluation("locations-disagree", wellKnown: served(),
                   root: served(.root, url: "https://example.com/apple-app-site-association", body: otherBody)),
        evaluation("cdn-stale", wellKnown: served(),
                   cdn: served(.cdn, url: "https://app-site-association.cdn-apple.com/a/v1/example.com", body: otherBody)),
        evaluation("user-agent-differs", wellKnown: served(status: 403), plain: served()),
    ]

    static let byteCases: [FindingCodeCase] = [
        bytes("size-over-128k", at: nil) { padded(to: 131_073) },
        bytes("utf8-bom", at: "") { [0xEF, 0xBB, 0xBF] + Array(#"{"webcredentials": {"apps": ["\#(app)"]}}"#.utf8) },
        bytes("signed-file-deprecated", at: "") { try FixtureFile.bytes("signed-smime.der") },
        bytes("signed-content-unreadable", at: "") { try FixtureFile.bytes("signed-detached.der") },
        document("invalid-json", at: "/applinks", #"{"applinks": }"#),
        bytes("invalid-utf8", at: "/webcredentials/apps/0") {
            Array(#"{"webcredentials": {"apps": ["ABCDE12345.a"#.utf8) + [0xFF] + Array(#""]}}"#.utf8)
        },
        document("duplicate-key", at: "/webcredentials", #"{"webcredentials": {"apps": []}, "webcredentials": {"apps": ["\#(app)"]}}"#),
        bytes("nesting-too-deep", at: "/x" + String(repeating: "/0", count: 127)) {
            Array(#"{"x": "#.utf8) + Array(repeating: UInt8(ascii: "["), count: 200) + Array(repeating: UInt8(ascii: "]"), count: 200) + [UInt8(ascii: "}")]
        },
        document("findings-truncated", at: nil,
                 #"{"applinks": {"apps": [], "details": [\#(Array(repeating: "1", count: 1_100).joined(separator: ","))]}}"#),
    ]

    static let documentCases: [FindingCodeCase] = [
        document("root-not-object", at: "", "[]"),
        document("no-services", at: "", #"{"applink": {"details": []}}"#),
        document("unknown-key", at: "/applinks/detials", #"{"applinks": {"apps": [], "details": [], "detials": []}}"#),
        document("service-not-object", at: "/webcredentials", #"{"webcredentials": ["\#(app)"]}"#),
        document("service-apps-wrong-type", at: "/appclips/apps", #"{"appclips": {"apps": "\#(app)"}}"#),
        document("service-apps-missing", at: "/activitycontinuation", #"{"activitycontinuation": {}}"#),
        document("service-apps-empty", at: "/webcredentials/apps", #"{"webcredentials": {"apps": []}}"#),
        document("details-in-non-applinks-service", at: "/webcredentials/details",
                 #"{"webcredentials": {"apps": ["\#(app)"], "details": []}}"#),
        document("applinks-details-missing", at: "/applinks", #"{"applinks": {"apps": []}}"#),
        document("details-empty", at: "/applinks/details", #"{"applinks": {"apps": [], "details": []}}"#),
        document("details-is-dictionary", at: "/applinks/details", #"{"applinks": {"apps": [], "details": {"\#(app)": {"paths": ["*"]}}}}"#),
        document("details-wrong-type", at: "/applinks/details", #"{"applinks": {"apps": [], "details": "\#(app)"}}"#),
        document("detail-not-object", at: "/applinks/details/0", #"{"applinks": {"apps": [], "details": ["\#(app)"]}}"#),
        document("applinks-apps-not-empty", at: "/applinks/apps", #"{"applinks": {"apps": ["\#(app)"], "details": []}}"#),
        document("applinks-apps-missing", at: "/applinks", #"{"applinks": {"details": []}}"#),
        document("applinks-apps-wrong-type", at: "/applinks/apps", #"{"applinks": {"apps": {}, "details": []}}"#),
        document("appid-missing", at: "/applinks/details/0", #"{"applinks": {"apps": [], "details": [{"paths": ["*"]}]}}"#),
        document("appid-wrong-type", at: "/applinks/details/0/appID", #"{"applinks": {"apps": [], "details": [{"appID": ["\#(app)"], "paths": ["*"]}]}}"#),
        document("appids-empty", at: "/applinks/details/0/appIDs", #"{"applinks": {"apps": [], "details": [{"appIDs": [], "components": []}]}}"#),
        document("appid-and-appids", at: "/applinks/details/0/appID",
                 #"{"applinks": {"apps": [], "details": [{"appID": "\#(app)", "appIDs": ["\#(app)"], "paths": ["*"]}]}}"#),
        document("appid-malformed", at: "/applinks/details/0/appIDs/0", #"{"applinks": {"apps": [], "details": [{"appIDs": ["com_example"], "components": []}]}}"#),
        document("appid-prefix-nonstandard", at: "/applinks/details/0/appIDs/0",
                 #"{"applinks": {"apps": [], "details": [{"appIDs": ["ABCD1234.com.apple.wwdc"], "components": [{"/": "/a"}]}]}}"#),
        document("appid-duplicate", at: "/applinks/details/1",
                 #"{"applinks": {"apps": [], "details": [{"appIDs": ["\#(app)"], "components": [{"/": "/a"}]}, {"appIDs": ["\#(app)"], "components": [{"/": "/b"}]}]}}"#),
        document("paths-legacy", at: "/applinks/details/0/paths", #"{"applinks": {"apps": [], "details": [{"appID": "\#(app)", "paths": ["/a"]}]}}"#),
        document("paths-and-components", at: "/applinks/details/0/paths",
                 #"{"applinks": {"apps": [], "details": [{"appID": "\#(app)", "paths": ["/a"], "components": [{"/": "/a"}]}]}}"#),
        document("paths-wrong-type", at: "/applinks/details/0/paths/1", #"{"applinks": {"apps": [], "details": [{"appID": "\#(app)", "paths": ["/a", 5]}]}}"#),
        document("rules-missing", at: "/applinks/details/0", #"{"applinks": {"apps": [], "details": [{"appIDs": ["\#(app)"], "compnents": [{"/": "/a"}]}]}}"#),
        document("entry-needs-ios13", at: "/applinks/details/0", #"{"applinks": {"details": [{"appIDs": ["\#(app)"], "components": [{"/": "/a"}]}]}}"#),
    ]

    static let ruleCases: [FindingCodeCase] = [
        rules("components-wrong-type", at: "/applinks/details/0/components", #"{"/": "/a"}"#),
        rules("component-not-object", at: "/applinks/details/0/components/0", #"["/a"]"#),
        rules("component-key-wrong-type", at: "/applinks/details/0/components/0/exclude", #"[{"/": "/a", "exclude": "true"}]"#),
        rules("query-predicate-not-string", at: "/applinks/details/0/components/0/?/id", #"[{"/": "/a", "?": {"id": 42}}]"#),
        rules("not-prefix-in-components", at: "/applinks/details/0/components/0/~1", #"[{"/": "NOT /private/*"}]"#),
        rules("path-pattern-has-hash", at: "/applinks/details/0/components/0/~1", #"[{"/": "/app#/route"}]"#),
        rules("non-ascii-pattern-encoded", at: "/applinks/details/0/components/0/~1", #"[{"/": "/café/*"}]"#),
        rules("escaped-pattern-decoded", at: "/applinks/details/0/components/0/~1", #"[{"/": "/caf%C3%A9/*", "percentEncoded": false}]"#),
        rules("pattern-never-matches", at: "/applinks/details/0/components/0/#", ##"[{"#": "#coupon"}]"##),
        rules("exclude-all", at: "/applinks/details/0/components/0", ##"[{"#": "*", "exclude": true}, {"/": "/a"}]"##),
        rules("catch-all-rule", at: "/applinks/details/0/components/0", #"[{"/": "*"}]"#),
        rules("unreachable-rule", at: "/applinks/details/0/components/1", #"[{"/": "/buy/*"}, {"/": "/buy/now"}]"#),
        rules("defaults-wrong-type", at: "/applinks/defaults", #"[{"/": "/a"}]"#, extra: #", "defaults": []"#),
        rules("defaults-pattern-keys", at: "/applinks/defaults", #"[{"/": "/a"}]"#, extra: #", "defaults": {"exclude": true}"#),
        rules("feature-min-os", at: "/applinks/details/0/components/0", #"[{"/": "/a", "caseSensitive": false}]"#),
    ]

    static let variableCases: [FindingCodeCase] = [
        rules("subst-wrong-type", at: "/applinks/substitutionVariables/food", #"[{"/": "/$(food)"}]"#,
              extra: #", "substitutionVariables": {"food": "taco"}"#),
        rules("subst-name-invalid", at: "/applinks/substitutionVariables/a$b", #"[{"/": "/a"}]"#,
              extra: #", "substitutionVariables": {"a$b": ["x"]}"#),
        rules("subst-value-references-variable", at: "/applinks/substitutionVariables/food/0", #"[{"/": "/$(food)"}]"#,
              extra: #", "substitutionVariables": {"food": ["$(lang)_taco"]}"#),
        rules("subst-undefined", at: "/applinks/details/0/components/0/~1", #"[{"/": "/$(Food)/*"}]"#,
              extra: #", "substitutionVariables": {"food": ["taco"]}"#),
        rules("subst-unterminated", at: "/applinks/details/0/components/0/~1", #"[{"/": "/$(food/*"}]"#,
              extra: #", "substitutionVariables": {"food": ["taco"]}"#),
        rules("subst-empty", at: "/applinks/substitutionVariables/food", #"[{"/": "/$(food)"}]"#,
              extra: #", "substitutionVariables": {"food": []}"#),
        rules("subst-shadows-builtin", at: "/applinks/substitutionVariables/lang", #"[{"/": "/$(lang)"}]"#,
              extra: #", "substitutionVariables": {"lang": ["en"]}"#),
        rules("subst-unused", at: "/applinks/substitutionVariables/food", #"[{"/": "/a"}]"#,
              extra: #", "substitutionVariables": {"food": ["taco"]}"#),
    ]

    static let entitlementCases: [FindingCodeCase] = [
        entitlement("entitlement-malformed", "applinks:https://example.com/"),
        entitlement("entitlement-unknown-service", "applink:example.com"),
        entitlement("entitlement-port", "applinks:example.com:8443"),
        entitlement("entitlement-mode-invalid", "applinks:example.com?mode=dev"),
        entitlement("entitlement-wildcard-not-allowed", "appclips:*.example.com"),
        entitlement("entitlement-idn-not-punycode", "applinks:bücher.example"),
        entitlement("entitlement-alternate-mode", "applinks:example.com?mode=developer+managed"),
        entitlement("entitlement-app-not-in-file", "webcredentials:example.com",
                    file: AASADocument(appServices: ["webcredentials": AppsService(apps: ["ABCDE12345.other"], location: SourceLocation(pointer: "/webcredentials"))]),
                    appID: app),
        FindingCodeCase(code: "watched-url-not-opened", pointer: "/applinks/details/0") {
            guard let file = AASAParser.parse(Array(#"{"applinks": {"details": [{"appIDs": ["\#(app)"], "components": [{"/": "/private/*", "exclude": true}, {"/": "/shop"}]}]}}"#.utf8)).document
            else { return [] }
            return WatchedURLCheck.findings("https://example.com/private/1", file: file, appID: try AppID(app))
                + WatchedURLCheck.findings("https://example.com/other", file: file, appID: try AppID(app))
        },
        FindingCodeCase(code: "watched-url-unclaimed", pointer: nil) { [WatchedURLCheck.unclaimed("https://other.example/", host: "other.example")] },
    ]
}
