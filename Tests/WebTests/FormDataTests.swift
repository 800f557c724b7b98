import Testing
@testable import Web

@Suite struct FormDataTests {
    @Test func decodesPlusPercentRepeatsAndCRLF() throws {
        let f = try FormData.decode(Array("host=b%C3%BCcher.example&app=A+B&app=C&note=a%0D%0Ab&empty=&flag".utf8))
        #expect(f["host"] == "bücher.example")
        #expect(f.all("app") == ["A B", "C"])
        #expect(f["note"] == "a\nb")
        #expect(f["empty"] == "")
        #expect(f["flag"] == "")
        #expect(f["missing"] == nil)
    }

    @Test func refusesOversizeTooManyFieldsAndBadEscapes() {
        let limits = FormData.Limits(maxBytes: 10, maxFields: 2)
        #expect(throws: FormData.DecodeError.tooLarge(limit: 10)) { try FormData.decode(Array("a=12345678901".utf8), limits: limits) }
        #expect(throws: FormData.DecodeError.tooManyFields(limit: 2)) { try FormData.decode(Array("a&b&c".utf8), limits: limits) }
        #expect(throws: FormData.DecodeError.malformed(field: "x")) { try FormData.decode(Array("x=%4".utf8)) }
        #expect(throws: FormData.DecodeError.malformed(field: "x")) { try FormData.decode(Array("x=%FF".utf8)) }
    }

    @Test func encodeRoundTrips() throws {
        let f = FormData(fields: [("host", "a b&c=d/é"), ("csrf", "x")])
        #expect(try FormData.decode(Array(f.encoded().utf8)) == f)
    }

    // MARK: multipart/form-data

    static let type = "multipart/form-data; boundary=----WebKitFormBoundaryX3y"
    static func body(_ parts: [String], boundary: String = "----WebKitFormBoundaryX3y", close: Bool = true) -> [UInt8] {
        var out = parts.map { "--\(boundary)\r\n" + $0 }.joined(separator: "\r\n")
        if close { out += "\r\n--\(boundary)--\r\n" }
        return Array(out.utf8)
    }

    /// What a browser sends for a form with a text area and a file input: text fields (CRLF
    /// normalised), the file byte for byte (CRLF, NUL and dashes kept), an empty file input dropped.
    @Test func multipartTextFieldsAndFilesAsABrowserSendsThem() throws {
        let binary: [UInt8] = Array("bplist00".utf8) + [0x00, 0x0D, 0x0A, 0x2D, 0x2D, 0xFF] + Array("\r\n------WebKitFormBoundaryX3".utf8)
        var bytes = Self.body([
            "Content-Disposition: form-data; name=\"csrf\"\r\n\r\nabc",
            "Content-Disposition: form-data; name=\"apple_domains\"\r\n\r\napplinks:a.example\r\napplinks:b.example",
            "Content-Disposition: form-data; name=\"manifest_file\"; filename=\"\"\r\nContent-Type: application/octet-stream\r\n\r\n",
        ], close: false)
        bytes += Array("\r\n------WebKitFormBoundaryX3y\r\nContent-Disposition: form-data; name=\"entitlements_file\"; filename=\"App;1.entitlements\"\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)
        bytes += binary + Array("\r\n------WebKitFormBoundaryX3y--\r\n".utf8)
        let form = try FormData.decode(bytes, contentType: Self.type, limits: .appFiles)
        #expect(form["csrf"] == "abc")
        #expect(form["apple_domains"] == "applinks:a.example\napplinks:b.example")
        #expect(form.files.count == 1 && form.file("manifest_file") == nil, "an empty file input sends no file")
        #expect(form.file("entitlements_file") == FormData.File(name: "entitlements_file", filename: "App;1.entitlements",
                                                                contentType: "application/octet-stream", bytes: binary))
        // A quoted boundary, a preamble, and a URL-encoded body still read as before.
        let quoted = try FormData.decode(Array("preamble\r\n".utf8) + Self.body(["Content-Disposition: form-data; name=a\r\n\r\n1"], boundary: "b c"),
                                         contentType: "Multipart/Form-Data; charset=utf-8; boundary=\"b c\"")
        #expect(quoted["a"] == "1")
        #expect(try FormData.decode(Array("a=1".utf8), contentType: "application/x-www-form-urlencoded")["a"] == "1")
    }

    /// Malformed bodies are refused with what is wrong, never half read.
    @Test func malformedMultipartIsRefusedWithTheReason() {
        func refusal(_ body: [UInt8], _ type: String = Self.type, limits: FormData.Limits = .appFiles) -> String {
            do {
                _ = try FormData.decode(body, contentType: type, limits: limits)
                return "accepted"
            } catch {
                return error.description
            }
        }
        let field = "Content-Disposition: form-data; name=\"a\"\r\n\r\n1"
        #expect(refusal(Self.body([field]), "multipart/form-data") == "the upload could not be read: the Content-Type has no usable boundary (1 to 70 printable characters)")
        #expect(refusal(Self.body([field]), "multipart/form-data; boundary=" + String(repeating: "x", count: 71)).contains("no usable boundary"))
        #expect(refusal(Array("a=1".utf8)) == "the upload could not be read: the body does not contain its boundary")
        #expect(refusal(Self.body([field], close: false)) == "the upload could not be read: the body ends before its closing boundary (an interrupted upload?)")
        #expect(refusal(Self.body(["Content-Type: text/plain\r\n\r\n1"])) == "the upload could not be read: part 1 has no Content-Disposition: form-data header")
        #expect(refusal(Self.body([field, "Content-Disposition: form-data; filename=\"x\"\r\n\r\n1"])) == "the upload could not be read: part 2 names no field")
        #expect(refusal(Self.body(["Content-Disposition form-data\r\n\r\n1"])) == "the upload could not be read: part 1 has a header line that is not \"Name: value\" ending in CRLF")
        #expect(refusal(Self.body(["Content-Disposition: form-data; name=a\nX: y\r\n\r\n1"])).contains("part 1 has a header line"))
        #expect(refusal(Array("------WebKitFormBoundaryX3yjunk\r\n".utf8)) == "the upload could not be read: part 1 does not start on a line of its own after the boundary")
        #expect(refusal(Self.body(["Content-Disposition: form-data; name=a; x=\"\(String(repeating: "y", count: 9000))\"\r\n\r\n1"]))
                == "the upload could not be read: part 1 has more than 8192 bytes of headers")
        #expect(refusal(Self.body([field, field, field]), limits: FormData.Limits(maxBytes: 1 << 20, maxFields: 2))
                == "the upload could not be read: the form has more than 2 parts")
        #expect(refusal(Self.body([field]), limits: FormData.Limits(maxBytes: 10, maxFields: 2)) == "the form is larger than 10 bytes")
    }
}
