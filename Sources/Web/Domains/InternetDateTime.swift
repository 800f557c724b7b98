import AASA
import Foundation

/// Reads RFC 3339 timestamps ("2027-03-01T00:00:00Z", "…T12:30:05.250+02:00"), the form the crawler
/// stores certificate expiry in, without a formatter: the domain page reads one per chart point
/// (up to 400), and creating an `ISO8601DateFormatter` each time cost ~80 µs, most of the page.
enum InternetDateTime {
    /// The instant, or nil when `text` is not exactly that form (callers may then try a formatter).
    static func date(_ text: String) -> Date? {
        var utf8 = text.utf8.makeIterator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        while let b = utf8.next() {
            guard bytes.count < 40 else { return nil }
            bytes.append(b)
        }
        var i = 0
        func number(_ digits: Int) -> Int? {
            guard i + digits <= bytes.count else { return nil }
            var n = 0
            for _ in 0..<digits {
                let d = Int(bytes[i]) - 48
                guard (0...9).contains(d) else { return nil }
                n = n * 10 + d
                i += 1
            }
            return n
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < bytes.count, bytes[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = number(4), expect(0x2D), let month = number(2), expect(0x2D), let day = number(2),
              i < bytes.count, bytes[i] == 0x54 || bytes[i] == 0x74 else { return nil }
        i += 1
        guard let hour = number(2), expect(0x3A), let minute = number(2), expect(0x3A), let second = number(2) else { return nil }
        guard (1...12).contains(month), (1...CivilDate.daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 60 else { return nil }
        var fraction = 0.0
        if expect(0x2E) {
            var scale = 0.1
            let start = i
            while i < bytes.count, (0x30...0x39).contains(bytes[i]) {
                fraction += Double(bytes[i] - 0x30) * scale
                scale /= 10
                i += 1
            }
            guard i > start else { return nil }
        }
        var offset = 0
        guard i < bytes.count else { return nil }
        switch bytes[i] {
        case 0x5A, 0x7A:
            i += 1
        case 0x2B, 0x2D:
            let sign = bytes[i] == 0x2D ? -1 : 1
            i += 1
            guard let oh = number(2), expect(0x3A), let om = number(2), oh < 24, om < 60 else { return nil }
            offset = sign * (oh * 3600 + om * 60)
        default:
            return nil
        }
        guard i == bytes.count else { return nil }
        let days = CivilDate.daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }
}
