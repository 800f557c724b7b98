import Testing
import TextEncoding

@Suite struct MarkupEscapingTests {
    @Test func htmlEscapesAllFiveCharacters() {
        #expect(MarkupEscaping.html("&<>\"'") == "&amp;&lt;&gt;&quot;&#39;")
        #expect(MarkupEscaping.html("a & b < c") == "a &amp; b &lt; c")
    }

    @Test func htmlLeavesEverythingElseAlone() {
        #expect(MarkupEscaping.html("bücher.example\n\t\u{1}") == "bücher.example\n\t\u{1}")
        #expect(MarkupEscaping.html("") == "")
    }

    @Test func htmlAppendsIntoExistingText() {
        var out = "<p>"
        MarkupEscaping.html("<i>", into: &out)
        MarkupEscaping.html("plain", into: &out)
        #expect(out == "<p>&lt;i&gt;plain")
    }

    @Test func xmlEscapesAllFiveAndTheWhitespaceAttributesWouldLose() {
        #expect(MarkupEscaping.xml("&<>\"'") == "&amp;&lt;&gt;&quot;&apos;")
        #expect(MarkupEscaping.xml("a\nb\tc\rd") == "a&#10;b&#9;c&#13;d")
    }

    @Test func xmlReplacesWhatXMLCannotCarry() {
        #expect(MarkupEscaping.xml("a\u{0}b\u{1B}c\u{1F}") == "a\u{FFFD}b\u{FFFD}c\u{FFFD}")
        #expect(MarkupEscaping.xml("\u{FFFE}\u{FFFF}") == "\u{FFFD}\u{FFFD}")
        #expect(MarkupEscaping.xml("bücher \u{1F600}") == "bücher \u{1F600}")
    }
}
