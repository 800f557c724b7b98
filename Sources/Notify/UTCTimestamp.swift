import AASA
import Foundation

/// Times in messages: ISO 8601 in UTC for machines and JSON, RFC 5322 for the mail `Date` header.
enum UTCTimestamp {
    static func iso8601(_ date: Date) -> String { CivilDate.iso8601(date) }

    /// "Sun, 22 Nov 2026 03:04:05 +0000" (RFC 5322 §3.3); English names whatever the locale.
    static func rfc5322(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let c = calendar.dateComponents([.weekday, .day, .month, .year, .hour, .minute, .second], from: date)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ v: Int?) -> String { let v = v ?? 0; return v < 10 ? "0\(v)" : "\(v)" }
        let day = days[((c.weekday ?? 1) - 1) % 7]
        let month = months[((c.month ?? 1) - 1) % 12]
        return "\(day), \(two(c.day)) \(month) \(c.year ?? 1970) \(two(c.hour)):\(two(c.minute)):\(two(c.second)) +0000"
    }
}
