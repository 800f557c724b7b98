import AssetLinks
import Foundation
import Testing
import Vocabulary

/// Every finding code has an input that must produce it, at the given pointer.
@Suite struct FindingCodeTests {
    static let fp = SpecExampleTests.fingerprint

    struct Case: Sendable, CustomTestStringConvertible {
        var code: String
        var body: [UInt8]
        var pointer: String?
        var source: AssetLinksSource = .https
        /// Include files, for codes only resolution reports.
        var includes: [String: String]?
        var testDescription: String { code }

        init(_ code: String, _ text: String, at pointer: String? = nil, source: AssetLinksSource = .https,
             includes: [String: String]? = nil) {
            self.code = code
            body = Array(text.utf8)
            self.pointer = pointer
            self.source = source
            self.includes = includes
        }

        init(_ code: String, bytes: [UInt8], at pointer: String? = nil) {
            self.code = code
            body = bytes
            self.pointer = pointer
        }

        func produce() -> [Finding] {
            let report = AssetLinksValidator.validate(body, source: source)
            guard let includes else { return report.findings }
            return report.findings + IncludeResolver.resolve(report.reading) { includes[$0].map { Array($0.utf8) } }.findings
        }
    }

    static func app(_ package: String = "com.example.app", fingerprints: String? = nil, relation: String = "\"delegate_permission/common.handle_all_urls\"",
                    extra: String = "") -> String {
        "[{\"relation\": [\(relation)], \"target\": {\"namespace\": \"android_app\", \"package_name\": \"\(package)\", \"sha256_cert_fingerprints\": \(fingerprints ?? "[\"\(fp)\"]")}\(extra)}]"
    }

    static func rules(_ json: String) -> String {
        app(extra: ", \"relation_extensions\": {\"delegate_permission/common.handle_all_urls\": {\"dynamic_app_link_components\": \(json)}}")
    }

    static let rulePointer = "/0/relation_extensions/delegate_permission~1common.handle_all_urls/dynamic_app_link_components"

    static let all: [Case] = [
        Case("body-is-html", "<!doctype html><html></html>", at: ""),
        Case("size-over-limit", "[" + String(repeating: " ", count: 1_048_576) + "]"),
        Case("encoding-invalid", bytes: Array("[\"".utf8) + [0xFF] + Array("\"]".utf8)),
        Case("utf8-bom", bytes: [0xEF, 0xBB, 0xBF] + Array(app().utf8), at: ""),
        Case("assetlinks-invalid-json", "[{\"relation\": [\"a/b\",], \"target\": {}}]"),
        Case("nesting-too-deep", "[{\"x\": " + String(repeating: "[", count: 200) + String(repeating: "]", count: 200) + "}]"),
        Case("duplicate-json-key", "[{\"relation\": [], \"relation\": [\"a/b\"], \"target\": {\"namespace\": \"web\", \"site\": \"https://a.example\"}}]",
             at: "/0/relation"),
        Case("findings-truncated", "[" + Array(repeating: "1", count: 1_100).joined(separator: ",") + "]"),
        Case("assetlinks-not-array", "{\"relation\": []}", at: ""),
        Case("assetlinks-empty", "[]", at: ""),
        Case("statement-not-object", "[42, \(app().dropFirst().dropLast())]", at: "/0"),
        Case("statement-dropped", "[{}, \(app().dropFirst().dropLast())]", at: ""),
        Case("statement-relation-missing", "[{\"relation\": \"delegate_permission/common.handle_all_urls\", \"target\": {\"namespace\": \"web\", \"site\": \"https://a.example\"}}]",
             at: "/0/relation"),
        Case("statement-relation-empty", app(relation: ""), at: "/0/relation"),
        Case("relation-malformed", app(relation: "\"Delegate_permission/common.handle_all_urls\""), at: "/0/relation/0"),
        Case("relation-unknown", app(relation: "\"delegate_permission/common.handle_all_url\""), at: "/0/relation/0"),
        Case("statement-target-missing", "[{\"relation\": [\"a/b\"]}]", at: "/0"),
        Case("target-not-object", "[{\"relation\": [\"a/b\"], \"target\": \"https://a.example\"}]", at: "/0/target"),
        Case("target-namespace-unknown", "[{\"relation\": [\"a/b\"], \"target\": {\"namespace\": \"ios_app\", \"appid\": \"X.y\"}}]",
             at: "/0/target/namespace"),
        Case("package-name-missing", "[{\"relation\": [\"a/b\"], \"target\": {\"namespace\": \"android_app\", \"sha256_cert_fingerprints\": [\"\(fp)\"]}}]",
             at: "/0/target"),
        Case("package-name-invalid", app("com.example app"), at: "/0/target/package_name"),
        Case("package-name-nonstandard", app("example"), at: "/0/target/package_name"),
        Case("fingerprints-missing", app(fingerprints: "[]"), at: "/0/target/sha256_cert_fingerprints"),
        Case("fingerprint-malformed", app(fingerprints: "[\"14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42\"]"),
             at: "/0/target/sha256_cert_fingerprints/0"),
        Case("fingerprint-lowercase", app(fingerprints: "[\"\(fp.lowercased())\"]"), at: "/0/target/sha256_cert_fingerprints/0"),
        Case("fingerprint-placeholder", app(fingerprints: "[\"${SHA256_FINGERPRINT}\"]"), at: "/0/target/sha256_cert_fingerprints/0"),
        Case("fingerprint-duplicate", app(fingerprints: "[\"\(fp)\", \"\(fp)\"]"), at: "/0/target/sha256_cert_fingerprints/1"),
        Case("web-site-missing", "[{\"relation\": [\"a/b\"], \"target\": {\"namespace\": \"web\"}}]", at: "/0/target"),
        Case("web-site-invalid", "[{\"relation\": [\"a/b\"], \"target\": {\"namespace\": \"web\", \"site\": \"https://a.example/\"}}]",
             at: "/0/target/site"),
        Case("web-site-insecure", "[{\"relation\": [\"a/b\"], \"target\": {\"namespace\": \"web\", \"site\": \"http://a.example\"}}]",
             at: "/0/target/site"),
        Case("unknown-key", "[{\"relation\": [\"a/b\"], \"target\": {\"namespace\": \"android_app\", \"packageName\": \"com.a.b\", \"sha256_cert_fingerprints\": [\"\(fp)\"]}}]",
             at: "/0/target/packageName"),
        Case("include-statement", "[{\"include\": \"https://a.example/more.json\"}]", at: "/0/include"),
        Case("include-with-target", "[{\"include\": \"https://a.example/more.json\", \"target\": {\"namespace\": \"web\", \"site\": \"https://a.example\"}}]",
             at: "/0"),
        Case("include-url-invalid", "[{\"include\": \"mailto://user@a.example\"}]", at: "/0/include"),
        Case("include-insecure", "[{\"include\": \"http://a.example/more.json\"}]", at: "/0/include"),
        Case("include-limit", "[" + (0..<11).map { "{\"include\": \"https://a.example/\($0).json\"}" }.joined(separator: ",") + "]", at: ""),
        Case("include-fetch-failed", "[{\"include\": \"https://a.example/more.json\"}]", at: "/0/include", includes: [:]),
        Case("include-nested", "[{\"include\": \"https://a.example/1.json\"}]", at: "/0/include",
             includes: ["https://a.example/1.json": "[{\"include\": \"https://a.example/2.json\"}]", "https://a.example/2.json": app()]),
        Case("dynamic-rules-invalid", rules("[{\"/\": \"/a\", \"exclude\": \"yes\"}]"), at: rulePointer + "/0/exclude"),
        Case("dynamic-rule-empty", rules("[{\"exclude\": true}, {\"/\": \"*\"}]"), at: rulePointer + "/0"),
        Case("dynamic-rule-unknown-key", rules("[{\"/\": \"*\", \"comment\": \"all\"}]"), at: rulePointer + "/0/comment"),
        Case("dynamic-rules-duplicate", "[" + rules("[{\"/\": \"*\"}]").dropFirst().dropLast() + "," + rules("[{\"/\": \"/a\"}]").dropFirst().dropLast() + "]",
             at: "/1/relation_extensions"),
        Case("relation-extension-orphan", app(extra: ", \"relation_extensions\": {\"delegate_permission/common.get_login_creds\": {}}"),
             at: "/0/relation_extensions/delegate_permission~1common.get_login_creds"),
        Case("dynamic-rule-unreachable", rules("[{\"/\": \"/a\"}, {\"/\": \"/a\", \"exclude\": true}, {\"/\": \"*\"}]"), at: rulePointer + "/1"),
        Case("dynamic-rules-exclude-only", rules("[{\"/\": \"/a\", \"exclude\": true}]"), at: rulePointer + "/0"),
        Case("dynamic-rules-no-default", rules("[{\"/\": \"/a/*\"}]"), at: rulePointer + "/0"),
        Case("dynamic-path-no-slash", rules("[{\"/\": \"a/*\"}, {\"/\": \"*\"}]"), at: rulePointer + "/0/~1"),
        Case("dynamic-pattern-encoded", rules("[{\"/\": \"/caf%C3%A9\"}, {\"/\": \"*\"}]"), at: rulePointer + "/0/~1"),
        Case("dynamic-pattern-regex-syntax", rules("[{\"/\": \"/p/[0-9]+\"}, {\"/\": \"*\"}]"), at: rulePointer + "/0/~1"),
        Case("dynamic-pattern-nonbacktracking", rules("[{\"/\": \"/p/*/print\"}, {\"/\": \"*\"}]"), at: rulePointer + "/0/~1"),
        Case("dynamic-pattern-star-question", rules("[{\"/\": \"/p/*?\"}, {\"/\": \"*\"}]"), at: rulePointer + "/0/~1"),
        Case("dynamic-path-has-query", rules("[{\"/\": \"/search?q=*\"}, {\"/\": \"*\"}]"), at: rulePointer + "/0/~1"),
        Case("dynamic-rules-min-os", rules("[{\"/\": \"*\"}]")),
    ]

    @Test(arguments: all)
    func codeIsReported(_ testCase: Case) throws {
        let findings = testCase.produce()
        let matching = findings.filter { $0.code == testCase.code }
        #expect(!matching.isEmpty, "expected \(testCase.code), got \(findings.map(\.code))")
        if let pointer = testCase.pointer {
            #expect(matching.contains { $0.location?.pointer == pointer },
                    "\(testCase.code) at \(matching.map { $0.location?.pointer ?? "nil" }), expected \(pointer)")
        }
        for finding in matching {
            #expect(!finding.message.isEmpty && finding.hint?.isEmpty == false || ["include-statement", "findings-truncated"].contains(finding.code))
            #expect(finding.affects != nil)
            let definition = try #require(AndroidFindingCatalog.definition(for: finding.code))
            // Only these depend on context: near misses are warnings.
            if !["unknown-key", "relation-unknown"].contains(finding.code) { #expect(finding.severity == definition.severity) }
        }
    }

    @Test func documentFindingsCarryLineAndColumn() {
        let text = "[\n  {\"relation\": [\"a/b\"],\n   \"target\": {\"namespace\": \"web\", \"site\": \"https://a.example/x\"}}\n]"
        let finding = AssetLinksValidator.validate(Array(text.utf8)).findings.first { $0.code == "web-site-invalid" }
        #expect(finding?.location == SourceLocation(pointer: "/0/target/site", line: 3, column: 43))
    }

    @Test func everyCatalogCodeHasACase() {
        let covered = Set(Self.all.map(\.code))
        let catalog = Set(AndroidFindingCatalog.all.map(\.code))
        #expect(catalog.subtracting(covered).sorted() == [], "codes without a test case")
        #expect(covered.subtracting(catalog).sorted() == [], "test cases for codes not in the catalog")
        #expect(catalog.count == AndroidFindingCatalog.all.count, "a code is listed twice")
        for code in catalog {
            #expect(code.allSatisfy { ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9") || $0 == "-" }, "\(code)")
        }
    }

    @Test func docsListEveryCodeWithItsSeverity() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/findings.md")
        let documented = FindingDocsTable.codes(in: try String(contentsOf: docs, encoding: .utf8), section: "Android")
        let catalog = Dictionary(uniqueKeysWithValues: AndroidFindingCatalog.all.map { ($0.code, $0.severity.rawValue) })
        #expect(Set(catalog.keys).subtracting(documented.keys).sorted() == [], "codes missing from docs/findings.md")
        #expect(Set(documented.keys).subtracting(catalog.keys).sorted() == [], "documented codes the module never emits")
        for (code, severity) in catalog { #expect(documented[code] == severity, "severity of \(code)") }
    }
}
