import AASA
import Foundation

/// Reads the certificate dates curl prints with CURLINFO_CERTINFO, without a `DateFormatter`:
/// the crawler reads one per handshake, and building a formatter each time cost ~3% of fetch CPU.
///
/// curl with OpenSSL prints `ASN1_TIME_print`'s form, `Dec 12 06:30:00 2026 GMT` (the day padded
/// with a space: `Jan  2 06:30:00 2026 GMT`, seconds possibly with a fraction); newer curl versions
/// print `2026-12-12 06:30:00 GMT`. Both are UTC.
enum CertificateDate {
    /// The instant, or nil when `text` is neither form.
    static func date(_ text: String) -> Date? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for b in text.utf8 {
            guard bytes.count < 48 else { return nil }
            bytes.append(b)
        }
        var reader = Reader(bytes: bytes)
        reader.skipSpaces()
        guard let first = reader.peek else { return nil }
        let fields: Fields?
        if (0x30...0x39).contains(first) {
            fields = reader.readNumeric()
        } else {
            fields = reader.readOpenSSL()
        }
        guard let f = fields else { return nil }
        // OpenSSL appends " GMT" for times in UTC; anything else (an offset we cannot know) is refused.
        reader.skipSpaces()
        if !reader.atEnd {
            guard reader.consume("GMT") || reader.consume("UTC") || reader.consume("Z") else { return nil }
            reader.skipSpaces()
            guard reader.atEnd else { return nil }
        }
        guard (1...12).contains(f.month), (1...CivilDate.daysIn(month: f.month, year: f.year)).contains(f.day),
              f.hour < 24, f.minute < 60, f.second < 60 else { return nil }
        let days = CivilDate.daysSinceEpoch(year: f.year, month: f.month, day: f.day)
        let seconds = days * 86_400 + f.hour * 3600 + f.minute * 60 + f.second
        return Date(timeIntervalSince1970: Double(seconds) + f.fraction)
    }

    struct Fields {
        var year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0
        var fraction = 0.0
    }

    struct Reader {
        let bytes: [UInt8]
        var i = 0

        var atEnd: Bool { i == bytes.count }
        var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

        mutating func skipSpaces() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
        }

        mutating func consume(_ literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard i + count <= bytes.count else { return false }
            let matches = literal.withUTF8Buffer { expected in
                (0..<count).allSatisfy { bytes[i + $0] == expected[$0] }
            }
            if matches { i += count }
            return matches
        }

        /// Between `minDigits` and `maxDigits` decimal digits.
        mutating func number(minDigits: Int, maxDigits: Int) -> Int? {
            var n = 0, digits = 0
            while digits < maxDigits, i < bytes.count, (0x30...0x39).contains(bytes[i]) {
                n = n * 10 + Int(bytes[i] - 0x30)
                i += 1
                digits += 1
            }
            return digits >= minDigits ? n : nil
        }

        mutating func time(into f: inout Fields) -> Bool {
            guard let h = number(minDigits: 2, maxDigits: 2), consume(":"),
                  let m = number(minDigits: 2, maxDigits: 2), consume(":"),
                  let s = number(minDigits: 2, maxDigits: 2) else { return false }
            (f.hour, f.minute, f.second) = (h, m, s)
            if consume(".") {
                var scale = 0.1
                let start = i
                while i < bytes.count, (0x30...0x39).contains(bytes[i]) {
                    f.fraction += Double(bytes[i] - 0x30) * scale
                    scale /= 10
                    i += 1
                }
                if i == start { return false }
            }
            return true
        }

        /// `Dec 12 06:30:00 2026`, `Jan  2 06:30:00.5 2026`
        mutating func readOpenSSL() -> Fields? {
            var f = Fields()
            guard i + 3 <= bytes.count, let month = CertificateDate.month(bytes[i], bytes[i + 1], bytes[i + 2]) else { return nil }
            i += 3
            f.month = month
            guard peek == 0x20 else { return nil }
            skipSpaces()
            guard let day = number(minDigits: 1, maxDigits: 2), peek == 0x20 else { return nil }
            f.day = day
            skipSpaces()
            guard time(into: &f), peek == 0x20 else { return nil }
            skipSpaces()
            guard let year = number(minDigits: 4, maxDigits: 4) else { return nil }
            f.year = year
            return f
        }

        /// `2026-12-12 06:30:00`
        mutating func readNumeric() -> Fields? {
            var f = Fields()
            guard let year = number(minDigits: 4, maxDigits: 4), consume("-"),
                  let month = number(minDigits: 2, maxDigits: 2), consume("-"),
                  let day = number(minDigits: 2, maxDigits: 2) else { return nil }
            (f.year, f.month, f.day) = (year, month, day)
            guard peek == 0x20 || peek == 0x54 else { return nil }   // ' ' or 'T'
            i += 1
            guard time(into: &f) else { return nil }
            return f
        }
    }

    /// English three-letter month abbreviations, as OpenSSL prints them (exact case).
    static func month(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Int? {
        switch (a, b, c) {
        case (0x4A, 0x61, 0x6E): 1    // Jan
        case (0x46, 0x65, 0x62): 2    // Feb
        case (0x4D, 0x61, 0x72): 3    // Mar
        case (0x41, 0x70, 0x72): 4    // Apr
        case (0x4D, 0x61, 0x79): 5    // May
        case (0x4A, 0x75, 0x6E): 6    // Jun
        case (0x4A, 0x75, 0x6C): 7    // Jul
        case (0x41, 0x75, 0x67): 8    // Aug
        case (0x53, 0x65, 0x70): 9    // Sep
        case (0x4F, 0x63, 0x74): 10   // Oct
        case (0x4E, 0x6F, 0x76): 11   // Nov
        case (0x44, 0x65, 0x63): 12   // Dec
        default: nil
        }
    }
}
