import Testing
@testable import HTTP

@Suite(.serialized) struct BodyPartsTests {
    @Test func aBodyInPartsIsSentWholeWithItsLength() throws {
        let big = [UInt8](repeating: UInt8(ascii: "a"), count: 70_000)
        try withServer(handler: { request in
            let parts: [[UInt8]] = [Array("start|".utf8), big, [], Array("|end".utf8)]
            let response = HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain"], bodyParts: parts)
            return request.path == "/inline" ? .respond(response) : .offload { _ in response }
        }) { server in
            let client = try RawClient(port: server.port)
            for path in ["/inline", "/offloaded", "/inline"] {
                try client.send("GET \(path) HTTP/1.1\r\nHost: t\r\n\r\n")
                let r = try #require(client.readResponse())
                #expect(r.status == 200)
                #expect(r.headers["Content-Length"] == String(6 + 70_000 + 4))
                #expect(r.text.hasPrefix("start|aaa") && r.text.hasSuffix("aaa|end") && r.text.utf8.count == 70_010)
            }
            // HEAD: the length of the whole body, no body.
            try client.send("HEAD /inline HTTP/1.1\r\nHost: t\r\n\r\n")
            let head = try #require(client.readResponse(head: true))
            #expect(head.headers["Content-Length"] == "70010" && head.text.isEmpty)
        }
        var joined = HTTPResponse(bodyParts: [Array("ab".utf8), Array("cd".utf8)])
        #expect(joined.body == Array("abcd".utf8) && joined.bodyCount == 4)
        joined.body = Array("x".utf8)
        #expect(joined.bodyParts == [Array("x".utf8)])
    }
}
