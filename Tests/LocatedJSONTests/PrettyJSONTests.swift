import Testing
import LocatedJSON
import Vocabulary

/// The text a stored version is shown as (computed once, when the version is first stored).
struct PrettyJSONTests {
    @Test func prettyJSONKeepsOrderAndPointers() throws {
        let lines = try #require(PrettyJSON.lines(Array(#"{"b":1,"a/x":[true,{"k":"v\"w"}]}"#.utf8)))
        #expect(lines.map(\.text) == ["{", "  \"b\": 1,", "  \"a/x\": [", "    true,", "    {", "      \"k\": \"v\\\"w\"",
                                      "    }", "  ]", "}"])
        #expect(lines[1].pointer == "/b")
        #expect(lines[3].pointer == "/a~1x/0")
        #expect(lines[5].pointer == "/a~1x/1/k")
        #expect(PrettyJSON.lines(Array("{\"a\":".utf8)) == nil)
        #expect(PrettyJSON.lines(Array("[] x".utf8)) == nil)
    }

    /// Bytes that are not JSON are shown as served: split at each line feed (a CRLF line keeps its
    /// CR, as the earlier per-view split did), empty lines kept, nothing pretty.
    @Test func textThatIsNotJSONKeepsItsLines() {
        let text = PrettyJSON.text(Array("not json\r\n\n{\"a\":".utf8))
        #expect(!text.pretty)
        #expect(text.lines.map(\.text) == ["not json\r", "", "{\"a\":"])
        #expect(text.lines.allSatisfy { $0.pointer.isEmpty })
        #expect(PrettyJSON.text(Array("[1]".utf8)) == FileText(pretty: true, lines: [.init(text: "[", pointer: ""), .init(text: "  1", pointer: "/0"), .init(text: "]", pointer: "")]))
    }
}
