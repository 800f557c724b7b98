import AssetLinks
import Foundation
import Testing

/// Google's own compatibility suite, one file per case (Fixtures/README.md): for every case, the
/// statements our reader says Google honours and whether Google reports an error must be Google's.
@Suite struct GoogleCompatibilityTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var body: [UInt8]
        var source: AssetLinksSource
        var statements: Set<Tuple>
        var error: Bool
        var uncertain: Bool
        /// Include resolution: the answer with the include files served as in the test.
        var resolved: (statements: Set<Tuple>, error: Bool, files: [String: [UInt8]])?

        var testDescription: String { name }
    }

    /// (relation, namespace, package or site, fingerprint): the suite's comparison unit (conventions.cases).
    struct Tuple: Hashable, Sendable, CustomStringConvertible {
        var relation: String
        var asset: String
        var description: String { "\(relation) → \(asset)" }
    }

    static func load() throws -> (cases: [Case], sites: [(String, String, Bool)]) {
        guard let url = Bundle.module.resourceURL?.appendingPathComponent("Fixtures/assetlinks-google-compat.json"),
              let data = FileManager.default.contents(atPath: url.path),
              let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let cases = root["cases"] as? [[String: Any]], let sites = root["site_cases"] as? [[String: Any]] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        let loaded = cases.map { item -> Case in
            let body = item["body"] as? [String: String] ?? [:]
            let bytes = body["text"].map { Array($0.utf8) } ?? Array(Data(base64Encoded: body["base64"] ?? "") ?? Data())
            let source: AssetLinksSource = item["served_in_apk"] != nil ? .app
                : ((item["served_at"] as? String)?.hasPrefix("http:") ?? false) ? .http : .https
            var resolved: (Set<Tuple>, Bool, [String: [UInt8]])?
            if let answer = item["resolved"] as? [String: Any] {
                let files = (answer["include_files"] as? [String: String] ?? [:]).mapValues { Array($0.utf8) }
                resolved = (tuples(answer["statements"]), answer["error"] as? Bool ?? false, files)
            }
            return Case(name: item["name"] as? String ?? "?", body: bytes, source: source, statements: tuples(item["statements"]),
                        error: item["error"] as? Bool ?? false, uncertain: item["status"] as? String == "uncertain", resolved: resolved)
        }
        let sitePairs = sites.map { ($0["a"] as? String ?? "", $0["b"] as? String ?? "", $0["same"] as? Bool ?? false) }
        return (loaded, sitePairs)
    }

    static func tuples(_ value: Any?) -> Set<Tuple> {
        var out = Set<Tuple>()
        for statement in value as? [[String: Any]] ?? [] {
            let relation = statement["relation"] as? String ?? ""
            let target = statement["target"] as? [String: Any] ?? [:]
            if let package = target["package_name"] as? String {
                for fingerprint in target["sha256_cert_fingerprints"] as? [String] ?? [] {
                    out.insert(Tuple(relation: relation, asset: "android_app \(package) \(fingerprint.uppercased())"))
                }
            } else if let site = target["site"] as? String {
                out.insert(Tuple(relation: relation, asset: "web \(normalizedSite(site))"))
            }
        }
        return out
    }

    /// The suite's site comparison (conventions.cases), written independently of the reader's.
    static func normalizedSite(_ site: String) -> String {
        var text = site.lowercased()
        for (scheme, port) in [("https://", ":443"), ("http://", ":80")] where text.hasPrefix(scheme) && text.hasSuffix(port) {
            text.removeLast(port.count)
        }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    static func honoured(_ statements: [Statement]) -> Set<Tuple> {
        var out = Set<Tuple>()
        for statement in statements {
            for relation in statement.relations {
                switch statement.target {
                case .androidApp(let package, let fingerprints):
                    for fingerprint in fingerprints { out.insert(Tuple(relation: relation, asset: "android_app \(package) \(fingerprint)")) }
                case .web(let site):
                    out.insert(Tuple(relation: relation, asset: "web \(site)"))
                }
            }
        }
        return out
    }

    static let all: [Case] = (try? load().cases) ?? []

    @Test func theSuiteIsThere() throws {
        let loaded = try Self.load()
        #expect(loaded.cases.count == 200)
        #expect(loaded.cases.filter(\.uncertain).count == 3)
    }

    @Test(arguments: all.filter { !$0.uncertain })
    func certainCase(_ testCase: Case) {
        let reading = AssetLinksReader.read(testCase.body, source: testCase.source)
        #expect(Self.honoured(reading.file?.statements ?? []) == testCase.statements)
        #expect(reading.googleReportsError == testCase.error)
        if let resolved = testCase.resolved {
            let resolution = IncludeResolver.resolve(reading) { resolved.files[$0] }
            #expect(Self.honoured(resolution.statements) == resolved.statements, "with includes")
            #expect(resolution.googleReportsError == resolved.error, "with includes")
        }
    }

    /// The suite contradicts itself on `[]` (comptest2002/3002), and comptest5008 depends on the file
    /// being served over http: we follow the readings the case notes give, and check them here.
    @Test(arguments: all.filter(\.uncertain))
    func uncertainCaseFollowsTheNotedReading(_ testCase: Case) {
        let reading = AssetLinksReader.read(testCase.body, source: testCase.source)
        #expect(Self.honoured(reading.file?.statements ?? []) == testCase.statements)
        #expect(reading.googleReportsError == testCase.error)
    }

    @Test func sitesCompareAsGoogleDoes() throws {
        for (a, b, same) in try Self.load().sites {
            let siteA = try #require(Self.site(a)), siteB = try #require(Self.site(b))
            #expect((siteA == siteB) == same, "\(a) vs \(b)")
        }
    }

    static func site(_ text: String) -> String? {
        let body = "[{\"relation\": [\"delegate_permission/common.get_login_creds\"], \"target\": {\"namespace\": \"web\", \"site\": \(JSONTextForTests.quoted(text))}}]"
        guard case .web(let site)? = AssetLinksReader.read(Array(body.utf8)).file?.statements.first?.target else { return nil }
        return site
    }
}

enum JSONTextForTests {
    static func quoted(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }
}
