import Foundation
import Testing
import Vocabulary
import WebAuthn

/// Every §6.1 code has an input that must produce it, at the given pointer.
@Suite struct FindingCodeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var code: String
        var produce: @Sendable (DomainRules) throws -> [Finding]
        var pointer: String?
        var testDescription: String { code }

        /// A file's findings, validated for the RP ID example.com.
        init(_ code: String, _ text: String, at pointer: String? = nil) {
            self.init(code, bytes: Array(text.utf8), at: pointer)
        }

        init(_ code: String, bytes: [UInt8], at pointer: String? = nil) {
            self.code = code
            self.pointer = pointer
            produce = { rules in
                RelatedOriginsValidator.validate(bytes, rules: rules, rpID: try RelyingPartyID("example.com", rules: rules)).findings
            }
        }

        /// An exchange's findings.
        init(_ code: String, transport facts: TransportFacts, needed: Bool = true) {
            self.code = code
            pointer = nil
            produce = { _ in RelatedOriginsTransport.findings(facts, needed: needed) }
        }
    }

    static func file(_ origins: String) -> String { "{\"origins\": [\(origins)]}" }
    static let url = "https://example.com/.well-known/webauthn"
    static func exchange(_ status: Int, contentType: String? = "application/json", redirects: [FollowedRedirect] = []) -> TransportFacts {
        var facts = TransportFacts(location: .wellKnown, url: url, status: status,
                                   headers: contentType.map { ["content-type": $0] } ?? [:], body: Array(file("\"https://shop.example\"").utf8))
        facts.followedRedirects = redirects
        return facts
    }

    static let all: [Case] = [
        Case("webauthn-missing", transport: exchange(404)),
        Case("webauthn-http-status", transport: exchange(500)),
        Case("webauthn-redirect-followed", transport: exchange(200, redirects: [FollowedRedirect(url: url, status: 301, location: "https://www.example.com/.well-known/webauthn")])),
        Case("webauthn-redirect-insecure", transport: exchange(200, redirects: [FollowedRedirect(url: url, status: 302, location: "http://example.com/.well-known/webauthn")])),
        Case("webauthn-content-type", transport: exchange(200, contentType: "text/plain")),
        Case("webauthn-body-html", "<!doctype html><html></html>", at: ""),
        Case("webauthn-too-large", file("\"https://shop.example\"") + String(repeating: " ", count: 262_144)),
        Case("webauthn-invalid-json", file("\"https://shop.example\",")),
        Case("webauthn-utf8-bom", bytes: [0xEF, 0xBB, 0xBF] + Array(file("\"https://shop.example\"").utf8), at: ""),
        Case("webauthn-not-object", "[\"https://shop.example\"]", at: ""),
        Case("webauthn-origins-missing", "{\"origin\": [\"https://shop.example\"]}", at: ""),
        Case("webauthn-origins-not-array", "{\"origins\": \"https://shop.example\"}", at: "/origins"),
        Case("webauthn-origin-not-string", file("\"https://shop.example\", {\"origin\": \"https://b.example\"}"), at: "/origins/1"),
        Case("webauthn-origins-empty", file(""), at: "/origins"),
        Case("webauthn-no-usable-origin", file("\"http://shop.example\", \"https://*.shop.example\""), at: "/origins"),
        Case("webauthn-duplicate-key", "{\"origins\": [], \"origins\": [\"https://shop.example\"]}", at: "/origins"),
        Case("webauthn-unknown-key", "{\"origins\": [\"https://shop.example\"], \"comment\": \"x\"}", at: "/comment"),
        Case("webauthn-origin-unparseable", file("\"shop.example\", \"https://shop.example\""), at: "/origins/0"),
        Case("webauthn-origin-not-https", file("\"https://shop.example\", \"http://shop.example\""), at: "/origins/1"),
        Case("webauthn-origin-has-path", file("\"https://shop.example/login\""), at: "/origins/0"),
        Case("webauthn-origin-trailing-slash", file("\"https://shop.example/\""), at: "/origins/0"),
        Case("webauthn-origin-userinfo", file("\"https://user@shop.example\""), at: "/origins/0"),
        Case("webauthn-origin-port", file("\"https://shop.example:8443\""), at: "/origins/0"),
        Case("webauthn-origin-default-port", file("\"https://shop.example:443\""), at: "/origins/0"),
        Case("webauthn-origin-wildcard", file("\"https://shop.example\", \"https://*.shop.example\""), at: "/origins/1"),
        Case("webauthn-origin-trailing-dot", file("\"https://shop.example.\""), at: "/origins/0"),
        Case("webauthn-origin-not-canonical", file("\"https://Bücher.de\""), at: "/origins/0"),
        Case("webauthn-origin-no-registrable-domain", file("\"https://shop.example\", \"https://github.io\""), at: "/origins/1"),
        Case("webauthn-origin-app-hash", file("\"https://shop.example\", \"android:apk-key-hash:FG3pg8VzBlDY7rmVLzT8ZBagg0LmHb6oigSWsj_PROU\""), at: "/origins/1"),
        Case("webauthn-origin-duplicate", file("\"https://shop.example\", \"https://shop.example/\""), at: "/origins/1"),
        Case("webauthn-origin-is-rp", file("\"https://shop.example\", \"https://login.example.com\""), at: "/origins/1"),
        Case("webauthn-label-limit", file(["a", "b", "c", "d", "e", "f"].map { "\"https://\($0).example\"" }.joined(separator: ", ")), at: "/origins"),
        Case("webauthn-many-origins", file((0...1_000).map { "\"https://s\($0).shop.example\"" }.joined(separator: ", ")), at: "/origins"),
        Case("nesting-too-deep", "{\"origins\": [\"https://shop.example\"], \"x\": " + String(repeating: "[", count: 200) + String(repeating: "]", count: 200) + "}"),
        Case("findings-truncated", file((0...1_100).map { _ in "\"https://shop.example/\"" }.joined(separator: ", "))),
    ]

    @Test(arguments: all)
    func codeIsReported(_ testCase: Case) throws {
        let findings = try testCase.produce(Rules.real())
        let matching = findings.filter { $0.code == testCase.code }
        #expect(!matching.isEmpty, "expected \(testCase.code), got \(findings.map(\.code))")
        if let pointer = testCase.pointer {
            #expect(matching.contains { $0.location?.pointer == pointer },
                    "\(testCase.code) at \(matching.map { $0.location?.pointer ?? "nil" }), expected \(pointer)")
        }
        for finding in matching {
            #expect(!finding.message.isEmpty)
            #expect(finding.hint?.isEmpty == false || finding.code == "findings-truncated", "\(finding.code) has no fix")
            #expect(finding.affects != nil)
            let definition = try #require(WebAuthnFindingCatalog.definition(for: finding.code))
            // webauthn-missing is an error exactly when a web origin needs the file.
            if finding.code != "webauthn-missing" { #expect(finding.severity == definition.severity) }
        }
    }

    @Test func missingFileIsInfoUnlessAnOriginNeedsIt() {
        let needed = RelatedOriginsTransport.findings(Self.exchange(410), needed: true)
        let optional = RelatedOriginsTransport.findings(Self.exchange(404), needed: false)
        #expect(needed.map(\.severity) == [.error] && needed.first?.code == "webauthn-missing")
        #expect(optional.map(\.severity) == [.info] && optional.first?.code == "webauthn-missing")
    }

    @Test func contentTypeParametersAndCaseAreAccepted() {
        #expect(RelatedOriginsTransport.findings(Self.exchange(200, contentType: "Application/JSON; charset=utf-8"), needed: true).isEmpty)
        #expect(RelatedOriginsTransport.findings(Self.exchange(200, contentType: nil), needed: true).map(\.code) == ["webauthn-content-type"])
        #expect(RelatedOriginsTransport.findings(Self.exchange(200, contentType: "application/jsonp"), needed: true).map(\.code) == ["webauthn-content-type"])
    }

    @Test func cleanFileHasNoFindings() throws {
        let rules = try Rules.real()
        let report = RelatedOriginsValidator.validate(Rules.file(["https://shop.example", "https://example.co.uk"]), rules: rules)
        #expect(report.findings.isEmpty, "\(report.findings.map(\.code))")
        #expect(report.usableOrigins.count == 2)
    }

    @Test func everyCatalogCodeHasACase() {
        let covered = Set(Self.all.map(\.code))
        let catalog = Set(WebAuthnFindingCatalog.all.map(\.code))
        #expect(catalog.subtracting(covered).sorted() == [], "codes without a test case")
        #expect(covered.subtracting(catalog).sorted() == [], "test cases for codes not in the catalog")
        #expect(catalog.count == WebAuthnFindingCatalog.all.count, "a code is listed twice")
    }

    @Test func docsListEveryCodeWithItsSeverity() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/findings.md")
        let documented = FindingDocsTable.codes(in: try String(contentsOf: docs, encoding: .utf8), section: "Web: /.well-known/webauthn")
        let catalog = Dictionary(uniqueKeysWithValues: WebAuthnFindingCatalog.all.map { ($0.code, $0.severity.rawValue) })
        #expect(Set(catalog.keys).subtracting(documented.keys).sorted() == [], "codes missing from docs/findings.md")
        #expect(Set(documented.keys).subtracting(catalog.keys).sorted() == [], "documented codes the module never emits")
        for (code, severity) in catalog { #expect(documented[code] == severity, "severity of \(code)") }
    }
}
