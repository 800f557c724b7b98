import Foundation

/// A deliberately independent reading of a received message: split headers (with unfolding),
/// decode RFC 2047 subjects and quoted-printable parts, so the tests check what a mail client sees.
struct ParsedMail {
    struct Failure: Error {}
    var headers: [(String, String)]
    var body: String

    init(_ raw: String) throws {
        let text = raw.replacingOccurrences(of: "\r\n", with: "\n")
        guard let split = text.range(of: "\n\n") else { throw Failure() }
        var hs: [(String, String)] = []
        for line in text[..<split.lowerBound].split(separator: "\n") {
            if line.first == " " || line.first == "\t", let last = hs.popLast() {
                hs.append((last.0, last.1 + " " + line.trimmingCharacters(in: .whitespaces)))
            } else if let colon = line.firstIndex(of: ":") {
                hs.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
            }
        }
        headers = hs
        body = String(text[split.upperBound...])
    }

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    var decodedSubject: String? {
        guard let raw = header("Subject") else { return nil }
        var out = ""
        for word in raw.split(separator: " ") {
            if word.hasPrefix("=?utf-8?B?"), word.hasSuffix("?="),
               let data = Data(base64Encoded: String(word.dropFirst(10).dropLast(2))) {
                out += String(decoding: data, as: UTF8.self)
            } else {
                out += (out.isEmpty ? "" : " ") + word
            }
        }
        return out
    }

    /// The decoded body of the first part with this content type.
    func part(_ contentType: String) -> String? {
        guard let ct = header("Content-Type"), let b = ct.range(of: "boundary=\"") else { return nil }
        let boundary = String(ct[b.upperBound...].prefix { $0 != "\"" })
        for chunk in body.components(separatedBy: "--\(boundary)") {
            guard let split = chunk.range(of: "\n\n") else { continue }
            let head = chunk[..<split.lowerBound].lowercased()
            guard head.contains("content-type: \(contentType)") else { continue }
            var content = String(chunk[split.upperBound...])
            if head.contains("quoted-printable") { content = Self.decodeQuotedPrintable(content) }
            return content
        }
        return nil
    }

    static func decodeQuotedPrintable(_ s: String) -> String {
        var bytes: [UInt8] = []
        let u = Array(s.replacingOccurrences(of: "=\n", with: "").utf8)
        var i = 0
        while i < u.count {
            if u[i] == UInt8(ascii: "="), i + 2 < u.count,
               let v = UInt8(String(decoding: u[(i + 1)...(i + 2)], as: UTF8.self), radix: 16) {
                bytes.append(v)
                i += 3
            } else {
                bytes.append(u[i])
                i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func parseRFC5322Date(_ s: String) -> Date? {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return f.date(from: s)
    }
}
