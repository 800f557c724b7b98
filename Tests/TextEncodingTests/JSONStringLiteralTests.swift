import Foundation
import Testing
import TextEncoding

/// The one JSON string quoting (LocatedJSON's JSONText was a second copy that wrote "\r" as
/// "\u000d" and let DEL through unseen; both are valid JSON, but a message shows the pattern to a
/// person, so the short escapes and a visible DEL win).
@Suite struct JSONStringLiteralTests {
    @Test func escapesQuotesBackslashesAndControlCharacters() {
        #expect(JSONStringLiteral.quoted(#"a "b" \c"#) == #""a \"b\" \\c""#)
        #expect(JSONStringLiteral.quoted("line\nfeed\rreturn\ttab") == #""line\nfeed\rreturn\ttab""#)
        #expect(JSONStringLiteral.quoted("\u{0}\u{1B}\u{1F}") == #""\u0000\u001b\u001f""#)
        #expect(JSONStringLiteral.quoted("del\u{7F}") == #""del\u007f""#, "DEL is invisible in a message: shown escaped")
        #expect(JSONStringLiteral.quoted("/p/*?é€😀") == #""/p/*?é€😀""#, "slashes and non-ASCII stay as they are")
    }

    /// Whatever it writes, a JSON parser reads back as the same string.
    @Test func aJSONParserReadsBackTheSameString() throws {
        let texts = ["", "plain", "\"\\/", "\u{0}\u{1}\u{8}\u{C}\n\r\t\u{1F}\u{7F}", "é\u{2028}\u{2029}😀"]
        for text in texts {
            let json = Data(JSONStringLiteral.quoted(text).utf8)
            #expect(try JSONSerialization.jsonObject(with: json, options: .fragmentsAllowed) as? String == text)
        }
    }
}
