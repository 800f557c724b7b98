import Vocabulary
import AASA
import Testing

/// Hostile and broken input: each gives findings, never a crash, unbounded memory or a hang.
@Suite struct ParserRobustnessTests {
    static let app = "ABCDE12345.com.example.app"

    func codes(_ result: ParseResult) -> [String] { result.findings.map(\.code) }

    @Test func byteOrderMarkIsReportedAndSkipped() throws {
        let result = AASAParser.parse([0xEF, 0xBB, 0xBF] + Array(#"{"webcredentials": 5}"#.utf8))
        #expect(codes(result) == ["utf8-bom", "service-not-object"])
        // The BOM is not a column: the value 5 is the 20th character after it.
        #expect(result.findings.last?.location == SourceLocation(pointer: "/webcredentials", line: 1, column: 20))
    }

    @Test func duplicateKeysKeepTheLastValue() throws {
        let result = AASAParser.parse(Array(#"{"webcredentials": {"apps": ["ABCDE12345.first"], "apps": ["ABCDE12345.last"]}}"#.utf8))
        #expect(result.document?.appServices["webcredentials"]?.apps == ["ABCDE12345.last"])
        let duplicate = try #require(result.findings.first { $0.code == "duplicate-key" })
        #expect(duplicate.location == SourceLocation(pointer: "/webcredentials/apps", line: 1, column: 51))
    }

    @Test func invalidUTF8IsReportedAndReplaced() throws {
        let bytes = Array(#"{"webcredentials": {"apps": ["ABCDE12345.a"#.utf8) + [0xC3, 0x28] + Array(#""]}}"#.utf8)
        let result = AASAParser.parse(bytes)
        #expect(codes(result).contains("invalid-utf8"))
        #expect(result.document?.appServices["webcredentials"]?.apps.first?.contains("\u{FFFD}") == true)
    }

    @Test func numbersWhereStringsBelongAreTypeFindings() throws {
        let result = AASAParser.parse(Array(#"{"applinks": {"details": [{"appID": 12345, "paths": [1, "/ok"]}]}}"#.utf8))
        #expect(codes(result).contains("appid-wrong-type"))
        #expect(codes(result).contains("paths-wrong-type"))
        #expect(result.document?.applinks?.details.first?.rules.map(\.settings.path) == ["/ok"])
    }

    @Test func tenThousandDeepArraysHitTheDepthLimit() throws {
        let bytes = Array(repeating: UInt8(ascii: "["), count: 10_000) + Array(repeating: UInt8(ascii: "]"), count: 10_000)
        let result = AASAParser.parse(bytes)
        #expect(codes(result).contains("nesting-too-deep"))
        #expect(codes(result).contains("root-not-object"))
        #expect(result.document == nil)
    }

    @Test func tenThousandDeepObjectsInsideAValidFileKeepTheRest() throws {
        let deep = String(repeating: #"{"a": "#, count: 10_000) + "1" + String(repeating: "}", count: 10_000)
        let json = #"{"junk": \#(deep), "webcredentials": {"apps": ["\#(Self.app)"]}}"#
        let result = AASAParser.parse(Array(json.utf8))
        #expect(codes(result).contains("nesting-too-deep"))
        #expect(result.document?.appServices["webcredentials"]?.apps == [Self.app])
    }

    @Test func tenThousandUnclosedBracketsAreInvalidJSON() {
        let result = AASAParser.parse(Array(repeating: UInt8(ascii: "["), count: 10_000))
        #expect(result.document == nil)
        #expect(codes(result).contains("invalid-json"))
    }

    @Test func tenMegabyteFileIsReadWithBoundedFindings() throws {
        // 10 MB of entries, each with a mistake: the findings stop at the cap and say so.
        let entry = #"{"appIDs": ["bad id"], "components": [{"/": "/a#b"}]}"#
        let count = 10_000_000 / (entry.utf8.count + 1)
        let json = #"{"applinks": {"apps": [], "details": ["# + Array(repeating: entry, count: count).joined(separator: ",") + "]}}"
        let report = AASAValidator.validate(Array(json.utf8))
        #expect(json.utf8.count >= 9_900_000)
        #expect(report.document?.applinks?.details.count == count)
        #expect(report.findings.first?.code == "size-over-128k")
        #expect(report.findings.contains { $0.code == "findings-truncated" })
        #expect(report.findings.count < 1_100)
    }

    @Test func tenMegabytesOfGarbageIsOneFinding() {
        var generator = SplitMix64(seed: 10)
        var bytes = [UInt8](repeating: 0, count: 10_000_000)
        bytes.withUnsafeMutableBytes { raw in
            for i in stride(from: 0, to: raw.count - 7, by: 8) { raw.storeBytes(of: generator.next(), toByteOffset: i, as: UInt64.self) }
        }
        let result = AASAParser.parse(bytes)
        #expect(result.document == nil)
        #expect(result.findings.count <= 2)
    }

    @Test func syntaxErrorsAreReportedButTheRestIsStillRead() throws {
        let json = """
        {
          // a comment
          "applinks": {"apps": [], "details": [
            {"appIDs": ["\(Self.app)"], "components": [{"/": "/a"}, {"/": "/b"},]}
            {"appIDs": ["\(Self.app)"] "components": [{"/": "/c"}]}
          ]},
        }
        """
        let result = AASAParser.parse(Array(json.utf8))
        let syntax = result.findings.filter { $0.code == "invalid-json" }
        #expect(syntax.map { $0.location?.line } == [2, 4, 5, 5, 6])
        let details = try #require(result.document?.applinks?.details)
        #expect(details.flatMap(\.rules).map(\.settings.path) == ["/a", "/b", "/c"])
    }

    @Test func unrecoverableSyntaxErrorGivesNoDocument() throws {
        let result = AASAParser.parse(Array(#"{"applinks": {"details": [}}"#.utf8))
        #expect(result.document == nil)
        let finding = try #require(result.findings.first)
        #expect(finding.code == "invalid-json")
        #expect(finding.location == SourceLocation(pointer: "/applinks/details/0", line: 1, column: 27))
    }

    @Test func emptyBodyIsInvalidJSON() {
        #expect(codes(AASAParser.parse([])) == ["invalid-json"])
        #expect(codes(AASAParser.parse(Array(" \n\t".utf8))) == ["invalid-json"])
    }

    @Test func escapesAndSurrogatesDecode() throws {
        let json = #"{"webcredentials": {"apps": ["ABCDE12345.a\u0062\/c\ud83d\ude00", "ABCDE12345.\ud800x"]}}"#
        let result = AASAParser.parse(Array(json.utf8))
        let apps = try #require(result.document?.appServices["webcredentials"]?.apps)
        #expect(apps == ["ABCDE12345.ab/c😀", "ABCDE12345.\u{FFFD}x"])
        #expect(codes(result).filter { $0 == "invalid-json" }.count == 1)
    }
}
