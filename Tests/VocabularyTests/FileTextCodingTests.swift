import Foundation
import Testing
import Vocabulary

/// A stored reading's text (`FileText`) reads back exactly as written, in its compact spelling: the
/// lines joined by line feeds, each pointer an index into the distinct pointers.
@Suite struct FileTextCodingTests {
    func roundTrip(_ text: FileText) throws -> (FileText, String) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(text)
        return (try JSONDecoder().decode(FileText.self, from: data), String(decoding: data, as: UTF8.self))
    }

    @Test func prettyLinesKeepTheirPointersAndStoreEachPointerOnce() throws {
        let text = FileText(pretty: true, lines: [
            .init(text: "{", pointer: ""), .init(text: #"  "applinks": {"#, pointer: "/applinks"),
            .init(text: #"    "apps": []"#, pointer: "/applinks/apps"), .init(text: "  }", pointer: "/applinks"), .init(text: "}", pointer: ""),
        ])
        let (back, stored) = try roundTrip(text)
        #expect(back == text)
        #expect(stored == #"{"at":"0,1,2,1,0","pointers":["","/applinks","/applinks/apps"],"pretty":true,"text":"{\n  \"applinks\": {\n    \"apps\": []\n  }\n}"}"#)
    }

    /// Text lines (bytes that were not JSON) split at LF only: a CRLF file's lines keep their "\r",
    /// and empty lines, a trailing one included, stay.
    @Test func textLinesKeepCarriageReturnsAndEmptyLines() throws {
        let text = FileText(pretty: false, lines: ["<html>\r", "", "\u{1F600} é\r", ""].map { .init(text: $0, pointer: "") })
        let (back, stored) = try roundTrip(text)
        #expect(back == text)
        #expect(!stored.contains("pointers"), "no pointers stored when every one is empty")
    }

    /// Lines that hold a line feed themselves, or no lines at all, are stored as a list.
    @Test func linesHoldingALineFeedAndNoLinesAtAll() throws {
        for text in [FileText(pretty: false, lines: [.init(text: "a\nb", pointer: ""), .init(text: "c", pointer: "/0")]),
                     FileText(pretty: false, lines: [])] {
            let (back, stored) = try roundTrip(text)
            #expect(back == text)
            #expect(stored.contains(#""lines":["#))
        }
    }

    @Test func pointerIndicesThatDoNotFitAreAnError() {
        for stored in [#"{"at":"0,1","pointers":[""],"pretty":true,"text":"a\nb"}"#,
                       #"{"at":"0","pointers":[""],"pretty":true,"text":"a\nb"}"#,
                       #"{"at":"0,x","pointers":[""],"pretty":true,"text":"a\nb"}"#] {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(FileText.self, from: Data(stored.utf8)) }
        }
    }
}
