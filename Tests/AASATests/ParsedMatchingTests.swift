import Foundation
import Testing
@testable import AASA

/// The matcher on documents read by the project's parser from JSON: the spec's worked examples and
/// the parser's representation of tricky keys (voided `?` dictionaries, `appID` vs `appIDs`, `paths`
/// beside `components`, defaults, the dictionary form of `details`).
struct ParsedMatchingTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        var document: String
        var json: [UInt8]
        var app: String
        var url: String
        var expected: String
        var testDescription: String { "\(document): \(url) for \(app) → \(expected)" }
    }

    static func vectors() throws -> [Vector] {
        let bytes = try FixtureFile.bytes("matching-vectors.json")
        guard let root = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
              let documents = root["documents"] as? [String: Any], let cases = root["cases"] as? [[String: String]] else {
            throw FixtureFile.Missing(description: "matching-vectors.json has an unexpected shape")
        }
        return try cases.map { row in
            let name = row["document"] ?? ""
            guard let document = documents[name] else { throw FixtureFile.Missing(description: "no document \(name)") }
            return Vector(document: name, json: Array(try JSONSerialization.data(withJSONObject: document)),
                          app: row["app"] ?? "", url: row["url"] ?? "", expected: row["expected"] ?? "")
        }
    }

    @Test(arguments: try vectors())
    func vector(_ vector: Vector) throws {
        let document = try #require(AASAParser.parse(vector.json).document)
        let compiled = CompiledDocument(document)
        #expect(compiled.decide(url: vector.url, appID: vector.app).name == vector.expected)
        #expect(compiled.explain(url: vector.url, appID: vector.app).decision.name == vector.expected)
    }

    @Test func modernOverviewFixture() throws {
        let document = try #require(AASAParser.parse(try FixtureFile.bytes("modern-overview.json")).document)
        let compiled = CompiledDocument(document)
        let app = "ABCDE12345.com.example.app"
        #expect(compiled.apps(for: "https://example.com/BUY/shoes").map(\.appID) == [app, "ABCDE12345.com.example.app.beta"],
                "applinks defaults make every rule case-insensitive")
        #expect(compiled.decide(url: "https://example.com/Recipes/TACO/today", appID: app) == .match(entry: 0, rule: 4))
        #expect(compiled.decide(url: "https://example.com/recipes/pasta/today", appID: app) == .noMatch)
        #expect(compiled.decide(url: "https://example.com/help/website/x", appID: app) == .exclude(entry: 0, rule: 2))
        #expect(compiled.decide(url: "https://example.com/buy/1", appID: "ABCDE12345.com.example.app.Clip") == .noMatch)
    }

    @Test func legacyNotFixture() throws {
        let document = try #require(AASAParser.parse(try FixtureFile.bytes("legacy-not.json")).document)
        let compiled = CompiledDocument(document)
        let app = "ABCDE12345.com.example.wwdc"
        #expect(compiled.decide(url: "https://example.com/videos/wwdc/2010/a", appID: app) == .exclude(entry: 0, rule: 0))
        #expect(compiled.decide(url: "https://example.com/videos/wwdc/2015/a", appID: app) == .match(entry: 0, rule: 1))
        #expect(compiled.decide(url: "https://example.com/anything?x#y", appID: app) == .match(entry: 0, rule: 3))
        let explanation = compiled.explain(url: "https://example.com/videos/wwdc/2010/a", appID: app)
        #expect(explanation.decidingRule?.legacyPath == "NOT /videos/wwdc/2010/*")
    }

    @Test func dictionaryFormKeepsByteOrder() throws {
        // JSONSerialization would lose key order; the parser keeps the order of the bytes.
        let json = #"{"applinks": {"details": {"T.zeta": {"paths": ["*"]}, "T.alpha": {"paths": ["*"]}}}}"#
        let document = try #require(AASAParser.parse(Array(json.utf8)).document)
        #expect(CompiledDocument(document).apps(for: "https://example.com/x").map(\.appID) == ["T.zeta", "T.alpha"])
    }
}
