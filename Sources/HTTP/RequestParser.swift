/// An incremental HTTP/1.x request parser over bytes.
///
/// Feed it the bytes of one connection, starting at the first byte of the current request, each
/// time more arrive; it resumes where it stopped, so a request trickling in byte by byte costs
/// linear work. It never throws and never traps on input: malformed input is a `.failed` step
/// with the status to answer (the connection must then be closed, since framing is lost).
/// Limits are enforced while bytes arrive, before an oversized request is buffered in full.
public struct RequestParser: Sendable {
    public enum Step: Sendable {
        /// More bytes are needed.
        case incomplete
        /// The head asked for `Expect: 100-continue` and no body byte has arrived: send
        /// `HTTP/1.1 100 Continue` once, then keep feeding bytes.
        case sendContinue
        /// A whole request; `consumed` bytes of the input belong to it.
        case complete(HTTPRequest, consumed: Int)
        /// The input is not an acceptable request; answer `status` and close the connection.
        case failed(HTTPStatus)
    }

    enum BodyFraming: Sendable, Equatable {
        case none
        case length(Int)
        case chunked
    }

    struct Head: Sendable {
        var method: HTTPMethod
        var target: String
        var version: HTTPVersion
        var headers: HTTPHeaders
        var keepAlive: Bool
        var expectContinue: Bool
        var framing: BodyFraming
        /// Offset of the first body byte (just after the blank line).
        var end: Int
    }

    enum ChunkPhase: Sendable {
        case size
        case data(remaining: Int)
        case dataEnd
        case trailers(bytes: Int)
    }

    public let limits: HTTPLimits
    /// Where the search for the end of the head resumes.
    private var scanned = 0
    /// Offset of the request line (after any blank lines the client sent first, RFC 9112 §2.2).
    private var lineStart = 0
    private var requestLineEnd: Int?
    private var head: Head?
    private var continueSent = false
    private var chunkOffset = 0
    private var chunkPhase = ChunkPhase.size
    private var chunkedBody: [UInt8] = []
    /// Where the search for the end of a chunk-size or trailer line resumes, so a line
    /// trickling in byte by byte is scanned once, not once per byte.
    private var chunkLineScan = 0

    public init(limits: HTTPLimits = HTTPLimits()) {
        self.limits = limits
    }

    /// Forgets the current request; the next bytes fed start a new one.
    public mutating func reset() {
        scanned = 0
        lineStart = 0
        requestLineEnd = nil
        head = nil
        continueSent = false
        chunkOffset = 0
        chunkPhase = .size
        chunkedBody = []
        chunkLineScan = 0
    }

    /// True once any byte of the current request (other than leading blank lines) was seen.
    public var hasStarted: Bool { scanned > lineStart || head != nil }

    /// Parses `bytes`, which must start with the first byte of the current request and extend
    /// what was passed before.
    public mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Step {
        if head == nil {
            switch findHead(bytes) {
            case .incomplete: return .incomplete
            case .failed(let status): return .failed(status)
            case .found(let end):
                let parsed = RequestParser.parseHead(UnsafeBufferPointer(rebasing: bytes[lineStart..<end]),
                                                     limits: limits)
                switch parsed {
                case .failure(let status): return .failed(status)
                case .success(var h):
                    h.end = end
                    head = h
                    chunkOffset = end
                }
            }
        }
        guard let head else { return .incomplete }
        switch head.framing {
        case .none:
            return finish(head, body: [], consumed: head.end)
        case .length(let length):
            if bytes.count - head.end >= length {
                let body = Array(UnsafeBufferPointer(rebasing: bytes[head.end..<(head.end + length)]))
                return finish(head, body: body, consumed: head.end + length)
            }
            return continueIfWanted(head, bytes)
        case .chunked:
            switch decodeChunks(bytes) {
            case .incomplete: return continueIfWanted(head, bytes)
            case .failed(let status): return .failed(status)
            case .found(let end):
                let body = chunkedBody
                return finish(head, body: body, consumed: end)
            }
        }
    }

    private mutating func continueIfWanted(_ head: Head, _ bytes: UnsafeBufferPointer<UInt8>) -> Step {
        if head.expectContinue && !continueSent && bytes.count == head.end {
            continueSent = true
            return .sendContinue
        }
        return .incomplete
    }

    private mutating func finish(_ head: Head, body: [UInt8], consumed: Int) -> Step {
        var request = HTTPRequest(method: head.method, target: head.target, version: head.version,
                                  headers: head.headers, body: body, keepAlive: head.keepAlive)
        request.keepAlive = head.keepAlive
        reset()
        return .complete(request, consumed: consumed)
    }

    enum Search: Equatable {
        case incomplete
        case found(Int)
        case failed(HTTPStatus)
    }

    private static let lf = UInt8(ascii: "\n")
    private static let cr = UInt8(ascii: "\r")

    /// Finds the blank line ending the head; enforces the request-line and head limits meanwhile.
    private mutating func findHead(_ bytes: UnsafeBufferPointer<UInt8>) -> Search {
        let count = bytes.count
        // Skip blank lines sent before the request line (bounded by the head limit).
        if scanned == lineStart {
            var i = lineStart
            while i < count {
                // Checked at every position, before looking at the byte, so the answer is the
                // same however the bytes were split into reads (the fuzzer checks that).
                if i > limits.maxHeaderBytes { return .failed(.requestHeaderFieldsTooLarge) }
                if bytes[i] == RequestParser.lf { i += 1 }
                else if bytes[i] == RequestParser.cr {
                    // A CR at the very end may be the start of a blank line: wait for its LF
                    // (but enforce the limit first, or the answer would depend on how the
                    // bytes were split into reads; the fuzzer found that).
                    if i + 1 >= count {
                        if i > limits.maxHeaderBytes { return .failed(.requestHeaderFieldsTooLarge) }
                        lineStart = i
                        scanned = i
                        return .incomplete
                    }
                    if bytes[i + 1] != RequestParser.lf { return .failed(.badRequest) }
                    i += 2
                } else { break }
            }
            if i > limits.maxHeaderBytes { return .failed(.requestHeaderFieldsTooLarge) }
            lineStart = i
            scanned = i
        }
        var i = scanned
        while i < count {
            guard bytes[i] == RequestParser.lf else { i += 1; continue }
            if requestLineEnd == nil {
                requestLineEnd = i
                if i - lineStart > limits.maxRequestLineBytes + 1 { return .failed(.uriTooLong) }
            }
            // A blank line is LF followed by LF or CR LF (RFC 9112 §2.2 lets a bare LF end a line).
            if i + 1 >= count { scanned = i; break }
            if bytes[i + 1] == RequestParser.lf {
                return checkedHeadEnd(i + 2)
            }
            if bytes[i + 1] == RequestParser.cr {
                if i + 2 >= count { scanned = i; break }
                if bytes[i + 2] == RequestParser.lf { return checkedHeadEnd(i + 3) }
            }
            i += 1
            scanned = i
        }
        if i >= count { scanned = max(scanned, count) }
        if requestLineEnd == nil && count - lineStart > limits.maxRequestLineBytes + 1 {
            return .failed(.uriTooLong)
        }
        if count - lineStart > limits.maxHeaderBytes { return .failed(.requestHeaderFieldsTooLarge) }
        return .incomplete
    }

    private func checkedHeadEnd(_ end: Int) -> Search {
        end - lineStart > limits.maxHeaderBytes ? .failed(.requestHeaderFieldsTooLarge) : .found(end)
    }

    // MARK: - Head

    static func parseHead(_ bytes: UnsafeBufferPointer<UInt8>, limits: HTTPLimits) -> ParseOutcome<Head> {
        var lines = LineCursor(bytes: bytes)
        guard let requestLine = lines.next() else { return .failure(.badRequest) }
        guard case .success(let line) = requestLine else { return .failure(.badRequest) }
        let method: HTTPMethod
        let target: String
        let version: HTTPVersion
        switch parseRequestLine(UnsafeBufferPointer(rebasing: bytes[line])) {
        case .failure(let status): return .failure(status)
        case .success(let parts): (method, target, version) = parts
        }

        var headers: [HTTPHeaders.Field] = []
        var contentLengths: [Int] = []
        var transferCodings: [String] = []
        var hostCount = 0
        var closeRequested = false
        var keepAliveRequested = false
        var expectContinue = false
        var contentLengthTooLarge = false

        while let next = lines.next() {
            guard case .success(let range) = next else { return .failure(.badRequest) }
            if range.isEmpty { break }
            if headers.count >= limits.maxHeaderCount { return .failure(.requestHeaderFieldsTooLarge) }
            let field = UnsafeBufferPointer(rebasing: bytes[range])
            // obs-fold (a line starting with whitespace) must be rejected or unfolded; we reject.
            if field[0] == 32 || field[0] == 9 { return .failure(.badRequest) }
            guard let colon = field.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return .failure(.badRequest) }
            for c in field[..<colon] where !isTokenCharacter(c) { return .failure(.badRequest) }
            var valueStart = colon + 1
            var valueEnd = field.count
            while valueStart < valueEnd, field[valueStart] == 32 || field[valueStart] == 9 { valueStart += 1 }
            while valueEnd > valueStart, field[valueEnd - 1] == 32 || field[valueEnd - 1] == 9 { valueEnd -= 1 }
            for c in field[valueStart..<valueEnd] where !isFieldValueCharacter(c) { return .failure(.badRequest) }
            let nameBytes = UnsafeBufferPointer(rebasing: field[..<colon])
            let valueBytes = UnsafeBufferPointer(rebasing: field[valueStart..<valueEnd])
            let name = String(decoding: nameBytes, as: UTF8.self)
            let value = String(decoding: valueBytes, as: UTF8.self)
            headers.append((name: name, value: value))

            switch nameBytes.count {
            case 4 where asciiLowercaseEquals(nameBytes, "host"):
                hostCount += 1
            case 6 where asciiLowercaseEquals(nameBytes, "expect"):
                if HTTPHeaders.asciiEqualTrimmed(valueBytes, "100-continue".utf8) {
                    expectContinue = true
                } else {
                    return .failure(.expectationFailed)
                }
            case 10 where asciiLowercaseEquals(nameBytes, "connection"):
                for token in valueBytes.split(separator: UInt8(ascii: ",")) {
                    if HTTPHeaders.asciiEqualTrimmed(token, "close".utf8) { closeRequested = true }
                    if HTTPHeaders.asciiEqualTrimmed(token, "keep-alive".utf8) { keepAliveRequested = true }
                }
            case 14 where asciiLowercaseEquals(nameBytes, "content-length"):
                // A list like "5, 5" is allowed if all members agree (RFC 9112 §6.3).
                for member in valueBytes.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
                    switch parseDecimal(member) {
                    case .some(.some(let n)): contentLengths.append(n)
                    case .some(.none): contentLengthTooLarge = true
                    case .none: return .failure(.badRequest)
                    }
                }
            case 17 where asciiLowercaseEquals(nameBytes, "transfer-encoding"):
                for coding in valueBytes.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
                    transferCodings.append(String(decoding: coding, as: UTF8.self))
                }
            default:
                break
            }
        }

        if version == .http1_1 && hostCount != 1 { return .failure(.badRequest) }
        if hostCount > 1 { return .failure(.badRequest) }

        var framing = BodyFraming.none
        if !transferCodings.isEmpty {
            // Both framings at once is the classic smuggling vector: refuse (RFC 9112 §6.3 item 3).
            if !contentLengths.isEmpty || contentLengthTooLarge { return .failure(.badRequest) }
            if version == .http1_0 { return .failure(.badRequest) }
            let isChunkedOnly = transferCodings.count == 1
                && HTTPHeaders.asciiEqualTrimmed(transferCodings[0].utf8, "chunked".utf8)
            guard isChunkedOnly else {
                let chunkedSomewhere = transferCodings.contains { HTTPHeaders.asciiEqualTrimmed($0.utf8, "chunked".utf8) }
                let chunkedLast = transferCodings.last.map { HTTPHeaders.asciiEqualTrimmed($0.utf8, "chunked".utf8) } ?? false
                // Codings we cannot decode (gzip, ...) are 501; chunked not last is broken framing.
                return .failure(chunkedSomewhere && !chunkedLast ? .badRequest : .notImplemented)
            }
            framing = .chunked
        } else if contentLengthTooLarge {
            return .failure(.payloadTooLarge)
        } else if let first = contentLengths.first {
            guard contentLengths.allSatisfy({ $0 == first }) else { return .failure(.badRequest) }
            if first > limits.maxBodyBytes { return .failure(.payloadTooLarge) }
            if first > 0 { framing = .length(first) }
        }

        let keepAlive = version == .http1_1 ? !closeRequested : (keepAliveRequested && !closeRequested)
        // 100-continue means nothing to an HTTP/1.0 client, nor without a body to wait for.
        let wantsContinue = expectContinue && version == .http1_1 && framing != .none
        return .success(Head(method: method, target: target, version: version, headers: HTTPHeaders(headers),
                             keepAlive: keepAlive, expectContinue: wantsContinue, framing: framing, end: 0))
    }

    static func parseRequestLine(_ line: UnsafeBufferPointer<UInt8>) -> ParseOutcome<(HTTPMethod, String, HTTPVersion)> {
        guard let firstSpace = line.firstIndex(of: 32), firstSpace > 0 else { return .failure(.badRequest) }
        let afterMethod = firstSpace + 1
        guard afterMethod < line.count,
              let secondSpace = line[afterMethod...].firstIndex(of: 32), secondSpace > afterMethod
        else { return .failure(.badRequest) }
        let methodBytes = UnsafeBufferPointer(rebasing: line[..<firstSpace])
        for c in methodBytes where !isTokenCharacter(c) { return .failure(.badRequest) }
        let targetBytes = UnsafeBufferPointer(rebasing: line[afterMethod..<secondSpace])
        for c in targetBytes where c <= 32 || c >= 127 { return .failure(.badRequest) }
        let versionBytes = UnsafeBufferPointer(rebasing: line[(secondSpace + 1)...])
        guard versionBytes.count == 8, asciiEquals(UnsafeBufferPointer(rebasing: versionBytes[0..<5]), "HTTP/"),
              versionBytes[6] == UInt8(ascii: "."),
              let major = digitValue(versionBytes[5]), let minor = digitValue(versionBytes[7])
        else { return .failure(.badRequest) }
        guard major == 1, minor <= 1 else { return .failure(.httpVersionNotSupported) }

        let method = knownMethod(methodBytes) ?? HTTPMethod(rawValue: String(decoding: methodBytes, as: UTF8.self))
        let first = targetBytes[0]
        if first != UInt8(ascii: "/") {
            let isAsterisk = targetBytes.count == 1 && first == UInt8(ascii: "*") && method == .options
            let isAbsolute = hasPrefixIgnoringCase(targetBytes, "http://") || hasPrefixIgnoringCase(targetBytes, "https://")
            guard isAsterisk || isAbsolute else { return .failure(.badRequest) }
        }
        let target = String(decoding: targetBytes, as: UTF8.self)
        return .success((method, target, HTTPVersion(major: major, minor: minor)))
    }

    private static func knownMethod(_ bytes: UnsafeBufferPointer<UInt8>) -> HTTPMethod? {
        switch bytes.count {
        case 3: if asciiEquals(bytes, "GET") { return .get }; if asciiEquals(bytes, "PUT") { return .put }
        case 4: if asciiEquals(bytes, "POST") { return .post }; if asciiEquals(bytes, "HEAD") { return .head }
        case 5: if asciiEquals(bytes, "PATCH") { return .patch }
        case 6: if asciiEquals(bytes, "DELETE") { return .delete }
        case 7: if asciiEquals(bytes, "OPTIONS") { return .options }
        default: break
        }
        return nil
    }

    // MARK: - Chunked bodies

    private static let maxChunkLineBytes = 4096

    /// Decodes chunks from `chunkOffset` on, appending data to `chunkedBody`; returns the offset
    /// just past the trailer section once the last chunk and trailers are in.
    private mutating func decodeChunks(_ bytes: UnsafeBufferPointer<UInt8>) -> Search {
        let count = bytes.count
        while true {
            switch chunkPhase {
            case .size:
                guard let lineEnd = RequestParser.findLineFeed(bytes, from: max(chunkOffset, chunkLineScan)) else {
                    chunkLineScan = count
                    return count - chunkOffset > RequestParser.maxChunkLineBytes ? .failed(.badRequest) : .incomplete
                }
                if lineEnd - chunkOffset > RequestParser.maxChunkLineBytes { return .failed(.badRequest) }
                guard let size = RequestParser.parseChunkSizeLine(bytes, from: chunkOffset, to: lineEnd) else {
                    return .failed(.badRequest)
                }
                guard size <= limits.maxBodyBytes - chunkedBody.count else { return .failed(.payloadTooLarge) }
                chunkOffset = lineEnd + 1
                chunkPhase = size == 0 ? .trailers(bytes: 0) : .data(remaining: size)
            case .data(let remaining):
                let available = min(remaining, count - chunkOffset)
                if available > 0 {
                    chunkedBody.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[chunkOffset..<(chunkOffset + available)]))
                    chunkOffset += available
                }
                if available < remaining {
                    chunkPhase = .data(remaining: remaining - available)
                    return .incomplete
                }
                chunkPhase = .dataEnd
            case .dataEnd:
                guard chunkOffset < count else { return .incomplete }
                if bytes[chunkOffset] == RequestParser.lf {
                    chunkOffset += 1
                } else if bytes[chunkOffset] == RequestParser.cr {
                    guard chunkOffset + 1 < count else { return .incomplete }
                    guard bytes[chunkOffset + 1] == RequestParser.lf else { return .failed(.badRequest) }
                    chunkOffset += 2
                } else {
                    return .failed(.badRequest)
                }
                chunkPhase = .size
            case .trailers(let seen):
                guard let lineEnd = RequestParser.findLineFeed(bytes, from: max(chunkOffset, chunkLineScan)) else {
                    chunkLineScan = count
                    return seen + count - chunkOffset > limits.maxHeaderBytes ? .failed(.requestHeaderFieldsTooLarge) : .incomplete
                }
                let lineLength = lineEnd - chunkOffset
                let total = seen + lineLength + 1
                if total > limits.maxHeaderBytes { return .failed(.requestHeaderFieldsTooLarge) }
                var contentEnd = lineEnd
                if contentEnd > chunkOffset && bytes[contentEnd - 1] == RequestParser.cr { contentEnd -= 1 }
                if contentEnd == chunkOffset {
                    return .found(lineEnd + 1)
                }
                // Trailer fields are read past, not kept: none of our handlers needs them.
                for c in bytes[chunkOffset..<contentEnd] where !RequestParser.isFieldValueCharacter(c) {
                    return .failed(.badRequest)
                }
                chunkOffset = lineEnd + 1
                chunkPhase = .trailers(bytes: total)
            }
        }
    }

    /// `1*HEXDIG [ BWS ";" chunk-ext ]` then optional CR; nil when malformed or absurdly large.
    static func parseChunkSizeLine(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to lineFeed: Int) -> Int? {
        var end = lineFeed
        if end > start && bytes[end - 1] == cr { end -= 1 }
        var i = start
        var size = 0
        var digits = 0
        while i < end, let v = PercentDecoding.hexValue(bytes[i]) {
            digits += 1
            if digits > 15 { return nil }   // 16^15 already dwarfs any body limit; no overflow possible
            size = size << 4 | Int(v)
            i += 1
        }
        guard digits > 0 else { return nil }
        while i < end, bytes[i] == 32 || bytes[i] == 9 { i += 1 }
        if i < end {
            guard bytes[i] == UInt8(ascii: ";") else { return nil }
            for c in bytes[i..<end] where !isFieldValueCharacter(c) { return nil }
        }
        return size
    }

    static func findLineFeed(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var i = start
        while i < bytes.count {
            if bytes[i] == lf { return i }
            i += 1
        }
        return nil
    }

    // MARK: - Character classes

    /// tchar of RFC 9110 §5.6.2.
    @inline(__always) static func isTokenCharacter(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
             UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// field-vchar, SP, HTAB and obs-text; any other control byte (CR, LF, NUL...) is refused.
    @inline(__always) static func isFieldValueCharacter(_ c: UInt8) -> Bool {
        c == 9 || (c >= 32 && c != 127)
    }

    @inline(__always) static func digitValue(_ c: UInt8) -> Int? {
        c >= 48 && c <= 57 ? Int(c - 48) : nil
    }

    /// nil: not a number; .some(nil): a number too large to be a body length we could accept.
    static func parseDecimal<C: Collection<UInt8>>(_ bytes: C) -> Int?? {
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == 32 || bytes[start] == 9 { start = bytes.index(after: start) }
        while start < end {
            let last = bytes.index(end, offsetBy: -1)
            if bytes[last] == 32 || bytes[last] == 9 { end = last } else { break }
        }
        guard start < end else { return nil }
        var value = 0
        var overflow = false
        for c in bytes[start..<end] {
            guard let d = digitValue(c) else { return nil }
            if value > (Int.max - d) / 10 { overflow = true } else if !overflow { value = value * 10 + d }
        }
        return overflow ? .some(nil) : .some(value)
    }

    static func asciiEquals(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        guard bytes.count == literal.utf8CodeUnitCount else { return false }
        let l = literal.utf8Start
        for i in 0..<bytes.count where bytes[i] != l[i] { return false }
        return true
    }

    static func asciiLowercaseEquals(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        let l = lowercase.utf8Start
        for i in 0..<bytes.count where HTTPHeaders.lowercased(bytes[i]) != l[i] { return false }
        return true
    }

    static func hasPrefixIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercase: StaticString) -> Bool {
        let n = lowercase.utf8CodeUnitCount
        guard bytes.count >= n else { return false }
        return asciiLowercaseEquals(UnsafeBufferPointer(rebasing: bytes[0..<n]), lowercase)
    }
}

/// Success, or the status to answer (a `Result` would need the status to be an `Error`).
enum ParseOutcome<Value> {
    case success(Value)
    case failure(HTTPStatus)
}

/// Walks the lines of a complete head. A line ends at LF, with an optional CR before it;
/// a CR anywhere else is an error (bare CR is not a line break, RFC 9112 §2.2).
struct LineCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The next line's range without its terminator; nil at the end; failure on a bare CR.
    mutating func next() -> ParseOutcome<Range<Int>>? {
        guard position < bytes.count else { return nil }
        let start = position
        var i = position
        while i < bytes.count && bytes[i] != 10 { i += 1 }
        guard i < bytes.count else { return .failure(.badRequest) }
        position = i + 1
        var end = i
        if end > start && bytes[end - 1] == 13 { end -= 1 }
        if bytes[start..<end].contains(13) { return .failure(.badRequest) }
        return .success(start..<end)
    }
}
