import Foundation

/// An RFC 5322 / MIME message: headers, then multipart/alternative with a plain-text and an
/// HTML part, both UTF-8 in quoted-printable (safe for any SMTP server, readable in raw form).
public struct MailMessage: Sendable {
    public var from: String
    public var to: [String]
    public var subject: String
    public var plain: String
    public var html: String
    public var messageID: String
    public var date: Date
    /// Extra headers such as X-AASA-Monitor-Event (name, value); values must be one line.
    public var extraHeaders: [(String, String)] = []

    /// The bytes handed to SMTP DATA (CRLF line ends; libcurl does the dot-stuffing).
    public func rendered() -> [UInt8] {
        let boundary = "=_aasa_" + messageID.filter { $0.isLetter || $0.isNumber }.prefix(32)
        var lines: [String] = []
        lines.append("Message-ID: <\(messageID)>")
        lines.append("Date: \(UTCTimestamp.rfc5322(date))")
        lines.append("From: \(Self.headerSafe(from))")
        lines.append("To: \(to.map(Self.headerSafe).joined(separator: ", "))")
        lines.append("Subject: \(Self.encodedWord(subject))")
        lines.append("MIME-Version: 1.0")
        for (name, value) in extraHeaders { lines.append("\(name): \(Self.headerSafe(value))") }
        lines.append("Content-Type: multipart/alternative; boundary=\"\(boundary)\"")
        lines.append("")
        lines.append("This is a multi-part message in MIME format.")
        lines.append("--\(boundary)")
        lines.append("Content-Type: text/plain; charset=utf-8")
        lines.append("Content-Transfer-Encoding: quoted-printable")
        lines.append("")
        lines.append(QuotedPrintable.encode(plain))
        lines.append("--\(boundary)")
        lines.append("Content-Type: text/html; charset=utf-8")
        lines.append("Content-Transfer-Encoding: quoted-printable")
        lines.append("")
        lines.append(QuotedPrintable.encode(html))
        lines.append("--\(boundary)--")
        lines.append("")
        return Array(lines.joined(separator: "\r\n").utf8)
    }

    /// A header value on one line: CR and LF would let a value inject headers.
    static func headerSafe(_ value: String) -> String {
        String(value.unicodeScalars.filter { $0 != "\r" && $0 != "\n" }.map(Character.init))
    }

    /// RFC 2047: ASCII subjects as they are, anything else as =?utf-8?B?...?= words of bounded length.
    static func encodedWord(_ text: String) -> String {
        let clean = headerSafe(text)
        if clean.unicodeScalars.allSatisfy({ $0.isASCII && $0.value >= 0x20 }) { return clean }
        // Split on character boundaries so no word cuts a UTF-8 sequence; 45 bytes -> 60 base64 chars.
        var words: [String] = []
        var chunk: [UInt8] = []
        for ch in clean {
            let bytes = Array(String(ch).utf8)
            if chunk.count + bytes.count > 45 {
                words.append("=?utf-8?B?\(Data(chunk).base64EncodedString())?=")
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty { words.append("=?utf-8?B?\(Data(chunk).base64EncodedString())?=") }
        return words.joined(separator: "\r\n ")
    }
}

/// RFC 2045 §6.7 quoted-printable with soft line breaks at 76 columns and CRLF hard breaks.
enum QuotedPrintable {
    static func encode(_ text: String) -> String {
        var out: [String] = []
        let hex = Array("0123456789ABCDEF".utf8)
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var bytes = Array(rawLine.utf8)
            if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
            var line: [UInt8] = []
            var encodedLine = ""
            for (i, b) in bytes.enumerated() {
                var piece: [UInt8]
                let isLast = i == bytes.count - 1
                if b == UInt8(ascii: "=") || b > 126 || (b < 32 && b != 9) || ((b == 32 || b == 9) && isLast) {
                    piece = [UInt8(ascii: "="), hex[Int(b >> 4)], hex[Int(b & 15)]]
                } else {
                    piece = [b]
                }
                if line.count + piece.count > 75 {
                    encodedLine += String(decoding: line, as: UTF8.self) + "=\r\n"
                    line = []
                }
                line += piece
            }
            encodedLine += String(decoding: line, as: UTF8.self)
            out.append(encodedLine)
        }
        return out.joined(separator: "\r\n")
    }
}
