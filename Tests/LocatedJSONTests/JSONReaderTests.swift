import LocatedJSON
import Testing
import Vocabulary

/// The reader's promises about positions on hostile input: every finding lies inside the file, on
/// the line it is on.
@Suite struct JSONReaderTests {
    static let kinds: JSONFindingKinds = {
        func kind(_ code: String) -> FindingDefinition {
            FindingDefinition(code, .error, affects: "", condition: "", source: "test", producer: "test")
        }
        return JSONFindingKinds(invalidJSON: kind("invalid-json"), invalidUTF8: kind("invalid-utf8"),
                                duplicateKey: kind("duplicate-key"), nestingTooDeep: kind("nesting-too-deep"),
                                expectedDocument: "a JSON value", truncated: kind("findings-truncated"))
    }()

    static func read(_ text: String) -> (value: JSONValue?, findings: [Finding], failed: Bool) {
        let (value, collector, failed) = JSONReader.read(SourceText(bytes: Array(text.utf8)), kinds: kinds)
        return (value, collector.finish(), failed)
    }

    static let tooDeep = String(repeating: "[", count: JSONReader.maxDepth + 1)

    /// Found by fuzzing (the json-reader crash of the 2026-11-24 CI): a file ending in a backslash
    /// inside a string inside a value nested too deep was reported as ending two columns past its
    /// last byte. The end of the file is the column just after the last character.
    @Test(arguments: ["\"\\", "\"ab\\", "\"é\\", "\"\\\\\\"])
    func theEndOfAFileInsideATooDeepStringIsInsideTheFile(tail: String) throws {
        let text = Self.tooDeep + tail
        let (value, findings, failed) = Self.read(text)
        #expect(value == nil && failed)
        #expect(findings.map(\.code) == ["nesting-too-deep", "invalid-json"])
        let end = try #require(findings.last?.location)
        #expect(end.line == 1)
        #expect(end.column == text.unicodeScalars.count + 1, "\(findings.map(\.message))")
    }

    /// A line break inside a string inside a skipped value still counts, so later findings name
    /// their own line.
    @Test func lineBreaksInsideATooDeepStringCount() throws {
        let text = Self.tooDeep + "\"a\nb\"" + String(repeating: "]", count: JSONReader.maxDepth + 1) + "\nx"
        let (value, findings, _) = Self.read(text)
        #expect(value != nil)
        let after = try #require(findings.last)
        #expect(after.message.hasPrefix("There is more text after the end of the JSON value"))
        #expect(after.location?.line == 3 && after.location?.column == 1)
    }
}
