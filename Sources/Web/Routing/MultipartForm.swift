/// A `multipart/form-data` body (RFC 7578 over RFC 2046's multipart syntax), as a browser posts a form
/// with a file input and no script. Standard library only, so the fuzz target (scripts/fuzz,
/// `multipart`) compiles this file alone.
///
/// Strict where browsers are consistent (CRLF line ends, a `Content-Disposition: form-data` with a
/// name on every part, the closing delimiter), bounded everywhere (parts, header bytes per part,
/// the boundary's length), and it never traps: bad input is a `MultipartError` that says what is
/// wrong, in words a person can act on.
public enum MultipartForm {
    public struct Part: Sendable, Equatable {
        public var name: String
        /// The file name a file input sent (possibly empty: no file chosen); nil for a text field.
        public var filename: String?
        public var contentType: String?
        public var body: [UInt8]
    }

    public struct Limits: Sendable {
        public var maxParts: Int
        /// Bytes of one part's header block.
        public var maxHeaderBytes: Int = 8 << 10
    }

    /// The boundary of a `multipart/form-data` content type; nil when the type is another.
    /// Throws when it is multipart without a usable boundary.
    public static func boundary(contentType: String) throws(MultipartError) -> [UInt8]? {
        let pieces = contentType.split(separator: ";", omittingEmptySubsequences: false)
        guard let type = pieces.first, trimmed(type).lowercased() == "multipart/form-data" else { return nil }
        for piece in pieces.dropFirst() {
            let parameter = trimmed(piece)
            guard let eq = parameter.firstIndex(of: "="), trimmed(parameter[..<eq]).lowercased() == "boundary" else { continue }
            var value = trimmed(parameter[parameter.index(after: eq)...])
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            let bytes = Array(value.utf8)
            // RFC 2046 §5.1.1: 1 to 70 characters, none of them control characters.
            guard (1...70).contains(bytes.count), bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
                throw .badBoundary
            }
            return bytes
        }
        throw .badBoundary
    }

    /// The parts in order. `body` is everything the client sent (the HTTP layer has capped its size).
    public static func parse(_ body: [UInt8], boundary: [UInt8], limits: Limits) throws(MultipartError) -> [Part] {
        let dashBoundary = Array("--".utf8) + boundary
        let delimiter = Array("\r\n".utf8) + dashBoundary
        // The first boundary may open the body (no preamble) or follow a preamble and CRLF.
        var position: Int
        if starts(body, with: dashBoundary, at: 0) {
            position = dashBoundary.count
        } else if let found = find(delimiter, in: body, from: 0) {
            position = found + delimiter.count
        } else {
            throw .noBoundary
        }
        var parts: [Part] = []
        while true {
            // After a delimiter: "--" closes the body; otherwise optional transport padding and CRLF.
            if starts(body, with: Array("--".utf8), at: position) { return parts }
            while position < body.count, body[position] == 0x20 || body[position] == 0x09 { position += 1 }
            guard starts(body, with: Array("\r\n".utf8), at: position) else {
                throw position >= body.count ? .unterminated : .malformedDelimiter(part: parts.count + 1)
            }
            position += 2
            guard parts.count < limits.maxParts else { throw .tooManyParts(limit: limits.maxParts) }
            let number = parts.count + 1
            // Headers end at the first empty line; an empty block (CRLF CRLF at once) is no header at all.
            let headerEnd: Int
            if starts(body, with: Array("\r\n".utf8), at: position) {
                headerEnd = position
            } else if let end = find(Array("\r\n\r\n".utf8), in: body, from: position, within: limits.maxHeaderBytes + 4) {
                headerEnd = end + 2
            } else {
                throw body.count - position > limits.maxHeaderBytes ? .headersTooLarge(part: number, limit: limits.maxHeaderBytes)
                                                                    : .unterminated
            }
            var part = try headers(Array(body[position..<headerEnd]), part: number)
            position = headerEnd + 2
            guard let end = find(delimiter, in: body, from: position) else { throw .unterminated }
            part.body = Array(body[position..<end])
            parts.append(part)
            position = end + delimiter.count
        }
    }

    /// One part's header lines (each ending CRLF): its name and file name from Content-Disposition,
    /// its Content-Type. Other headers are allowed and ignored, as RFC 7578 §4.8 says.
    static func headers(_ block: [UInt8], part: Int) throws(MultipartError) -> Part {
        var disposition: String?
        var contentType: String?
        var lines = block.split(separator: 0x0A, omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        for line in lines {
            guard line.last == 0x0D else { throw .malformedHeader(part: part) }
            let text = String(decoding: line.dropLast(), as: UTF8.self)
            guard let colon = text.firstIndex(of: ":") else { throw .malformedHeader(part: part) }
            let name = text[..<colon].lowercased()
            let value = trimmed(text[text.index(after: colon)...])
            switch name {
            case "content-disposition": disposition = value
            case "content-type": contentType = value
            default: break
            }
        }
        guard let disposition else { throw .noDisposition(part: part) }
        let pieces = splitParameters(disposition)
        guard let kind = pieces.first, kind.lowercased() == "form-data" else { throw .noDisposition(part: part) }
        var fieldName: String?, filename: String?
        for piece in pieces.dropFirst() {
            guard let eq = piece.firstIndex(of: "=") else { continue }
            let key = trimmed(piece[..<eq]).lowercased()
            var value = trimmed(piece[piece.index(after: eq)...])
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            // Browsers percent-encode a quote, CR and LF in names (the WHATWG form encoding).
            value = unescapedName(value)
            if key == "name" { fieldName = value } else if key == "filename" { filename = value }
        }
        guard let fieldName, !fieldName.isEmpty else { throw .noName(part: part) }
        return Part(name: fieldName, filename: filename, contentType: contentType, body: [])
    }

    /// `%22`, `%0D` and `%0A` back to the quote, CR and LF they stand for (nothing else is escaped).
    static func unescapedName(_ value: String) -> String {
        guard value.contains("%") else { return value }
        var out = "", scalars = Array(value.unicodeScalars), i = 0
        while i < scalars.count {
            if scalars[i] == "%", i + 2 < scalars.count {
                let code = String(String.UnicodeScalarView(scalars[(i + 1)...(i + 2)])).uppercased()
                let replacement: Unicode.Scalar? = code == "22" ? "\"" : code == "0D" ? "\r" : code == "0A" ? "\n" : nil
                if let replacement {
                    out.unicodeScalars.append(replacement)
                    i += 3
                    continue
                }
            }
            out.unicodeScalars.append(scalars[i])
            i += 1
        }
        return out
    }

    /// Splits on semicolons outside double quotes (a file name may hold a semicolon).
    static func splitParameters(_ value: String) -> [String] {
        var pieces: [String] = [], current = "", quoted = false
        for c in value {
            if c == "\"" { quoted.toggle() }
            if c == ";" && !quoted {
                pieces.append(trimmed(current))
                current = ""
            } else {
                current.append(c)
            }
        }
        pieces.append(trimmed(current))
        return pieces
    }

    static func trimmed<S: StringProtocol>(_ s: S) -> String {
        var scalars = Substring(s).unicodeScalars[...]
        while let f = scalars.first, f == " " || f == "\t" { scalars.removeFirst() }
        while let l = scalars.last, l == " " || l == "\t" { scalars.removeLast() }
        return String(String.UnicodeScalarView(scalars))
    }

    static func starts(_ body: [UInt8], with prefix: [UInt8], at offset: Int) -> Bool {
        guard offset >= 0, body.count - offset >= prefix.count else { return false }
        for i in prefix.indices where body[offset + i] != prefix[i] { return false }
        return true
    }

    /// The first offset of `needle` at or after `from` (starting no later than `from + within`).
    /// A scan for the needle's first byte, then a compare: bounded by the body times the needle (at
    /// most 74 bytes).
    static func find(_ needle: [UInt8], in body: [UInt8], from: Int, within: Int = .max) -> Int? {
        guard let first = needle.first, from >= 0 else { return nil }
        let lastStart = min(body.count - needle.count, within == .max ? .max : from + within)
        var i = from
        while i <= lastStart {
            if body[i] == first && starts(body, with: needle, at: i) { return i }
            i += 1
        }
        return nil
    }
}

/// Why an upload could not be read; `description` is shown to the person who sent it.
public enum MultipartError: Error, Equatable, Sendable, CustomStringConvertible {
    case badBoundary
    case noBoundary
    case unterminated
    case malformedDelimiter(part: Int)
    case malformedHeader(part: Int)
    case headersTooLarge(part: Int, limit: Int)
    case noDisposition(part: Int)
    case noName(part: Int)
    case tooManyParts(limit: Int)

    public var description: String {
        switch self {
        case .badBoundary: "the Content-Type has no usable boundary (1 to 70 printable characters)"
        case .noBoundary: "the body does not contain its boundary"
        case .unterminated: "the body ends before its closing boundary (an interrupted upload?)"
        case .malformedDelimiter(let n): "part \(n) does not start on a line of its own after the boundary"
        case .malformedHeader(let n): "part \(n) has a header line that is not \"Name: value\" ending in CRLF"
        case .headersTooLarge(let n, let limit): "part \(n) has more than \(limit) bytes of headers"
        case .noDisposition(let n): "part \(n) has no Content-Disposition: form-data header"
        case .noName(let n): "part \(n) names no field"
        case .tooManyParts(let limit): "the form has more than \(limit) parts"
        }
    }
}
