import Testing
@testable import Web

@Suite struct HTMLTests {
    @Test func interpolatedTextIsEscaped() {
        let hostile = "<script>alert('x')</script>&\"quoted\""
        let page: HTML = "<td title=\"\(hostile)\">\(hostile)</td>"
        #expect(page.rendered == "<td title=\"&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;&quot;quoted&quot;\">"
            + "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;&quot;quoted&quot;</td>")
        #expect(!page.rendered.contains("<script>"))
    }

    @Test func markupIsInsertedOnceNotEscapedTwice() {
        let inner: HTML = "<b>\("a&b")</b>"
        let outer: HTML = "<p>\(inner)</p>"
        #expect(outer.rendered == "<p><b>a&amp;b</b></p>")
    }

    @Test func plainTextTakesTheFastPathUnchanged() {
        #expect(HTML.escape("bücher.example") == "bücher.example")
        #expect(HTML(text: "").rendered == "")
    }

    @Test func numbersOptionalsAndListsInterpolate() {
        let missing: String? = nil
        let parts: [HTML] = ["<li>\("1<")</li>", "<li>2</li>"]
        let page: HTML = "\(42)|\(missing)|\(parts)|\(parts.joined(separator: ", "))"
        #expect(page.rendered == "42||<li>1&lt;</li><li>2</li>|<li>1&lt;</li>, <li>2</li>")
    }

    @Test func appendTextEscapes() {
        var h: HTML = "<p>"
        h.append(text: "<i>")
        h.append("</p>")
        #expect(h.rendered == "<p>&lt;i&gt;</p>")
    }
}
