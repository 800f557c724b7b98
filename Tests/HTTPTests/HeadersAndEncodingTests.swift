import Testing
@testable import HTTP

@Suite struct HeadersAndEncodingTests {
    @Test func caseInsensitiveLookupAndSetting() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain", "set-cookie": "a=1"]
        headers.add(name: "Set-Cookie", value: "b=2")
        #expect(headers["content-type"] == "text/plain")
        #expect(headers.values(for: "SET-COOKIE") == ["a=1", "b=2"])
        headers["Set-Cookie"] = "c=3"
        #expect(headers.values(for: "set-cookie") == ["c=3"])
        headers["content-TYPE"] = nil
        #expect(headers["Content-Type"] == nil)
        #expect(headers.count == 1)
        headers.add(name: "Connection", value: "Upgrade, keep-alive")
        #expect(headers.containsToken("KEEP-ALIVE", in: "connection"))
        #expect(!headers.containsToken("close", in: "connection"))
    }

    @Test func responseHeadIsEncodedWithServerFields() {
        let encoder = ResponseEncoder(securityHeaders: ["X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer"])
        var response = HTTPResponse.text("hi", status: .created)
        response.headers.add(name: "Referrer-Policy", value: "same-origin")      // the response's own wins
        response.headers.add(name: "Content-Length", value: "999")              // replaced by the real one
        response.headers.add(name: "X-Evil", value: "a\r\nInjected: yes")        // no header splitting
        var out: [UInt8] = []
        let (keepAlive, sendsBody) = encoder.encodeHead(response, keepAlive: true, version: .http1_0, isHead: false,
                                                        date: Array("Sun, 22 Nov 2026 03:00:00 GMT".utf8), into: &out)
        let text = String(decoding: out, as: UTF8.self)
        #expect(keepAlive && sendsBody)
        #expect(text.hasPrefix("HTTP/1.1 201 Created\r\nDate: Sun, 22 Nov 2026 03:00:00 GMT\r\nContent-Length: 2\r\n"))
        #expect(text.contains("Referrer-Policy: same-origin\r\n"))
        #expect(!text.contains("no-referrer"))
        #expect(text.contains("X-Frame-Options: DENY\r\n"))
        #expect(!text.contains("999"))
        #expect(!text.contains("\r\nInjected"))
        #expect(text.hasSuffix("Connection: keep-alive\r\n\r\n"))
    }

    @Test func notModifiedHasNoBodyOrLength() {
        let encoder = ResponseEncoder(securityHeaders: HTTPHeaders())
        var out: [UInt8] = []
        let (_, sendsBody) = encoder.encodeHead(HTTPResponse(status: .notModified, body: [1, 2]), keepAlive: true,
                                                version: .http1_1, isHead: false, date: [], into: &out)
        #expect(!sendsBody)
        #expect(!String(decoding: out, as: UTF8.self).contains("Content-Length"))
    }

    @Test func mediaTypes() {
        #expect(MediaTypes.forPath("/a/b.CSS") == "text/css; charset=utf-8")
        #expect(MediaTypes.forPath("/x.svg") == "image/svg+xml")
        #expect(MediaTypes.forPath("/x.woff2") == "font/woff2")
        #expect(MediaTypes.forPath("/dir.d/file") == "application/octet-stream")
        #expect(MediaTypes.forPath("/noext") == "application/octet-stream")
    }
}
