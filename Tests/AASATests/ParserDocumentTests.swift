import Vocabulary
import Testing
@testable import AASA

/// The document the parser produces is the matcher's input: these pin the model's contract.
@Suite struct ParserDocumentTests {
    func parse(_ json: String) -> ParseResult { AASAParser.parse(Array(json.utf8)) }

    @Test func modernFileBecomesTypedDocument() throws {
        let result = parse("""
        {"applinks": {"defaults": {"caseSensitive": false},
          "details": [{"appIDs": ["ABCDE12345.com.example.app", "ABCDE12345.com.example.other"],
                       "components": [{"/": "/buy/*", "?": {"ref": "?*"}, "comment": "c"},
                                      {"#": "nope", "exclude": true, "percentEncoded": false}]}],
          "substitutionVariables": {"food": ["taco", "burrito"]}},
         "webcredentials": {"apps": ["ABCDE12345.com.example.app"]}}
        """)
        let doc = try #require(result.document)
        let links = try #require(doc.applinks)
        #expect(links.defaults == RuleSettings(caseSensitive: false))
        #expect(links.substitutionVariables.map(\.name) == ["food"])
        #expect(links.detailsForm == .array)
        let entry = try #require(links.details.first)
        #expect(entry.appIDs == ["ABCDE12345.com.example.app", "ABCDE12345.com.example.other"])
        #expect(entry.rulesSource == .components)
        #expect(entry.rules.count == 2)
        #expect(entry.rules[0].settings == RuleSettings(path: "/buy/*", query: .items([QueryItemPattern(name: "ref", pattern: "?*")])))
        #expect(entry.rules[0].comment == "c")
        #expect(entry.rules[1].settings == RuleSettings(fragment: "nope", exclude: true, percentEncoded: false))
        #expect(entry.rules[1].location.pointer == "/applinks/details/0/components/1")
        #expect(doc.appServices["webcredentials"]?.apps == ["ABCDE12345.com.example.app"])
        #expect(doc.wasSigned == false)
    }

    @Test func legacyPathsBecomeRulesWithNOTAsExclude() throws {
        let doc = try #require(parse("""
        {"applinks": {"apps": [], "details": [{"appID": "ABCDE12345.com.example.app", "paths": ["NOT /wwdc/news/*", "/wwdc/*", "*"]}]}}
        """).document)
        let entry = try #require(doc.applinks?.details.first)
        #expect(entry.appIDs == ["ABCDE12345.com.example.app"])
        #expect(entry.rulesSource == .paths)
        #expect(entry.rules.map(\.settings) == [RuleSettings(path: "/wwdc/news/*", exclude: true),
                                                RuleSettings(path: "/wwdc/*"), RuleSettings(path: "*")])
        #expect(entry.rules.map(\.legacyPath) == ["NOT /wwdc/news/*", "/wwdc/*", "*"])
        #expect(doc.applinks?.apps == [])
    }

    @Test func componentsWinOverPathsAndAppIDsOverAppID() throws {
        let doc = try #require(parse("""
        {"applinks": {"details": [{"appID": "ABCDE12345.old", "appIDs": [], "paths": ["/old"], "components": [{"/": "/new"}]}]}}
        """).document)
        let entry = try #require(doc.applinks?.details.first)
        #expect(entry.appIDs.isEmpty)   // appIDs present (even empty) wins
        #expect(entry.rules.map(\.settings.path) == ["/new"])
    }

    @Test func dictionaryFormKeepsByteOrder() throws {
        let doc = try #require(parse("""
        {"applinks": {"apps": [], "details": {"ZZZZZ12345.z": {"paths": ["/z"]}, "AAAAA12345.a": {"paths": ["/a"]}, "MMMMM12345.m": {"paths": ["/m"]}}}}
        """).document)
        #expect(doc.applinks?.detailsForm == .dictionary)
        #expect(doc.applinks?.details.map(\.appIDs) == [["ZZZZZ12345.z"], ["AAAAA12345.a"], ["MMMMM12345.m"]])
    }

    @Test func nonStringQueryValueVoidsTheDictionary() throws {
        let result = parse("""
        {"applinks": {"details": [{"appIDs": ["ABCDE12345.a"], "components": [{"/": "/x", "?": {"a": "1", "b": 2}}]}]}}
        """)
        let rule = try #require(result.document?.applinks?.details.first?.rules.first)
        #expect(rule.settings.query == .voided)
        #expect(result.findings.contains { $0.code == "query-predicate-not-string" && $0.location?.pointer == "/applinks/details/0/components/0/?/b" })
    }

    @Test func wrongTypesAreDroppedButSiblingsSurvive() throws {
        let result = parse("""
        {"applinks": {"details": [42, {"appIDs": ["ABCDE12345.a", 7], "components": ["/x", {"/": 5, "#": "f"}, {"/": "/ok"}]}]}}
        """)
        let entry = try #require(result.document?.applinks?.details.first)
        #expect(result.document?.applinks?.details.count == 1)
        #expect(entry.appIDs == ["ABCDE12345.a"])
        #expect(entry.rules.map(\.settings) == [RuleSettings(fragment: "f"), RuleSettings(path: "/ok")])
        let codes = result.findings.map(\.code)
        #expect(codes.contains("detail-not-object"))
        #expect(codes.contains("appid-wrong-type"))
        #expect(codes.contains("component-not-object"))
        #expect(codes.contains("component-key-wrong-type"))
    }

    @Test func locationsCarryPointerLineAndColumn() throws {
        let text = "{\n  \"applinks\": {\n    \"details\": [\n      {\"appIDs\": [\"ABCDE12345.a\"], \"components\": [{\"/\": \"a#b\"}]}\n    ]\n  }\n}"
        let result = parse(text)
        let finding = try #require(result.findings.first { $0.code == "path-pattern-has-hash" })
        #expect(finding.location == SourceLocation(pointer: "/applinks/details/0/components/0/~1", line: 4, column: 57))
        let rule = try #require(result.document?.applinks?.details.first?.rules.first)
        #expect(rule.location == SourceLocation(pointer: "/applinks/details/0/components/0", line: 4, column: 51))
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let result = parse("{\"applinks\": {\"details\": [{\"appIDs\": [\"é\"]}]}}")
        let finding = try #require(result.findings.first { $0.code == "appid-malformed" })
        #expect(finding.location?.column == 39)
        let later = parse("{\"x\": \"é\", \"applinks\": {\"details\": 5}}")
        let wrong = try #require(later.findings.first { $0.code == "details-wrong-type" })
        #expect(wrong.location?.column == 36)
    }
}
