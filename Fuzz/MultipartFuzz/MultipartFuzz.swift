// libFuzzer target for the multipart/form-data reader of the web forms (Sources/Web/Routing/
// MultipartForm.swift, compiled in alone by scripts/fuzz: it needs only the standard library).
//
// The input is a Content-Type, a NUL, then the body (no NUL: a fixed boundary and the whole input
// as the body). Beyond "never traps", what it reads it reads again the same: the parts written back
// with the same boundary (names and file names escaped as browsers escape them) parse to the same
// parts, and no more parts than the limit are ever returned.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultipart(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    var boundary = Array("B0undary".utf8)
    var body = input
    if let nul = input.firstIndex(of: 0) {
        let type = String(decoding: input[..<nul], as: UTF8.self)
        body = Array(input[(nul + 1)...])
        do {
            if let found = try MultipartForm.boundary(contentType: type) { boundary = found }
        } catch {
            return 0
        }
    }
    let limits = MultipartForm.Limits(maxParts: 8, maxHeaderBytes: 512)
    guard let parts = try? MultipartForm.parse(body, boundary: boundary, limits: limits) else { return 0 }
    precondition(parts.count <= limits.maxParts, "\(parts.count) parts past the limit")
    let again: [MultipartForm.Part]
    do {
        again = try MultipartForm.parse(encode(parts, boundary: boundary), boundary: boundary,
                                        limits: MultipartForm.Limits(maxParts: 8, maxHeaderBytes: 1 << 20))
    } catch {
        fatalError("parts written back do not parse: \(error)")
    }
    precondition(again == parts, "round trip changed the parts: \(parts) became \(again)")
    return 0
}

/// The parts as a browser would send them: quote, CR and LF in names percent-escaped.
func encode(_ parts: [MultipartForm.Part], boundary: [UInt8]) -> [UInt8] {
    func escaped(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "%22"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
    var out: [UInt8] = []
    for part in parts {
        out += Array("--".utf8) + boundary + Array("\r\n".utf8)
        var disposition = "Content-Disposition: form-data; name=\"\(escaped(part.name))\""
        if let filename = part.filename { disposition += "; filename=\"\(escaped(filename))\"" }
        out += Array((disposition + "\r\n").utf8)
        if let type = part.contentType { out += Array("Content-Type: \(type)\r\n".utf8) }
        out += Array("\r\n".utf8) + part.body + Array("\r\n".utf8)
    }
    out += Array("--".utf8) + boundary + Array("--\r\n".utf8)
    return out
}
