/// Writes a response head as bytes, adding the server's own fields. Used on the event loop,
/// so it appends into a reusable array and formats numbers by hand (no String interpolation).
struct ResponseEncoder: Sendable {
    /// `Name: value\r\n` of each default security header, with the lowercase name to skip it
    /// when a response sets its own.
    private let securityHeaders: [(name: String, line: [UInt8])]

    init(securityHeaders: HTTPHeaders) {
        self.securityHeaders = securityHeaders.map { field in
            (name: field.name, line: Array("\(field.name): \(field.value)\r\n".utf8))
        }
    }

    static let continueResponse: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
    static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)
    static let crlfBytes: [UInt8] = crlf

    /// `SIZE-IN-HEX\r\n`, the line before a chunk of `count` bytes.
    static func chunkSizeLine(_ count: Int) -> [UInt8] {
        var out: [UInt8] = []
        var shift = (Int.bitWidth - count.leadingZeroBitCount + 3) / 4 * 4
        if shift == 0 { out.append(48) }
        while shift > 0 {
            shift -= 4
            let digit = UInt8((count >> shift) & 0xF)
            out.append(digit < 10 ? 48 + digit : 87 + digit)
        }
        out.append(13)
        out.append(10)
        return out
    }

    /// The head of `response` (ending with the blank line); the body is sent separately unless
    /// `includeBody` is false (HEAD, 304...). Returns whether the connection stays open. A streamed
    /// response gets `Transfer-Encoding: chunked` (HTTP/1.1) or closes the connection (HTTP/1.0).
    func encodeHead(_ response: HTTPResponse, keepAlive requestKeepAlive: Bool, version: HTTPVersion,
                    isHead: Bool, date: [UInt8], into out: inout [UInt8]) -> (keepAlive: Bool, sendsBody: Bool) {
        var keepAlive = requestKeepAlive
        out.append(contentsOf: ResponseEncoder.statusLinePrefix)
        appendDecimal(response.status.code, to: &out)
        out.append(32)
        out.append(contentsOf: response.status.reasonPhrase.utf8)
        out.append(contentsOf: ResponseEncoder.crlf)
        out.append(contentsOf: ResponseEncoder.dateName)
        out.append(contentsOf: date)
        out.append(contentsOf: ResponseEncoder.crlf)
        let allowsBody = response.status.allowsBody
        let streamed = response.stream != nil
        if allowsBody && !streamed {
            out.append(contentsOf: ResponseEncoder.contentLengthName)
            appendDecimal(response.bodyCount, to: &out)
            out.append(contentsOf: ResponseEncoder.crlf)
        } else if allowsBody {
            // A streamed body's length is not known up front. HTTP/1.0 has no chunked coding: its
            // body ends when the connection does (a HEAD has no body, so it may keep the connection).
            if version == .http1_1 {
                out.append(contentsOf: ResponseEncoder.transferEncodingChunked)
            } else if !isHead {
                keepAlive = false
            }
        }
        for field in response.headers {
            switch field.name.utf8.count {
            case 10 where HTTPHeaders.namesEqual(field.name, "Connection"):
                if HTTPHeaders.asciiEqualTrimmed(field.value.utf8, "close".utf8) { keepAlive = false }
                continue
            case 14 where HTTPHeaders.namesEqual(field.name, "Content-Length"):
                continue
            case 17 where HTTPHeaders.namesEqual(field.name, "Transfer-Encoding"):
                continue
            case 4 where HTTPHeaders.namesEqual(field.name, "Date"):
                continue
            default:
                break
            }
            out.append(contentsOf: field.name.utf8)
            out.append(58)
            out.append(32)
            appendSanitized(field.value, to: &out)
            out.append(contentsOf: ResponseEncoder.crlf)
        }
        for header in securityHeaders where !response.headers.contains(header.name) {
            out.append(contentsOf: header.line)
        }
        if !keepAlive {
            out.append(contentsOf: ResponseEncoder.connectionClose)
        } else if version == .http1_0 {
            out.append(contentsOf: ResponseEncoder.connectionKeepAlive)
        }
        out.append(contentsOf: ResponseEncoder.crlf)
        return (keepAlive, allowsBody && !isHead && (streamed || response.bodyCount > 0))
    }

    /// A header value may come from user data: a CR or LF in it would split the response.
    private func appendSanitized(_ value: String, to out: inout [UInt8]) {
        for c in value.utf8 {
            out.append(c == 13 || c == 10 || c == 0 ? 32 : c)
        }
    }

    private static let statusLinePrefix: [UInt8] = Array("HTTP/1.1 ".utf8)
    private static let crlf: [UInt8] = [13, 10]
    private static let dateName: [UInt8] = Array("Date: ".utf8)
    private static let contentLengthName: [UInt8] = Array("Content-Length: ".utf8)
    private static let transferEncodingChunked: [UInt8] = Array("Transfer-Encoding: chunked\r\n".utf8)
    private static let connectionClose: [UInt8] = Array("Connection: close\r\n".utf8)
    private static let connectionKeepAlive: [UInt8] = Array("Connection: keep-alive\r\n".utf8)
}

/// Appends the decimal digits of a non-negative number.
func appendDecimal(_ value: Int, to out: inout [UInt8]) {
    if value < 10 {
        out.append(UInt8(48 + max(value, 0)))
        return
    }
    var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                 UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var n = value
    var count = 0
    withUnsafeMutableBytes(of: &digits) { raw in
        while n > 0 && count < 20 {
            raw[19 - count] = UInt8(48 + n % 10)
            n /= 10
            count += 1
        }
        out.append(contentsOf: raw[(20 - count)...])
    }
}
