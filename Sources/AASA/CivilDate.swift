import Foundation
/// Proleptic Gregorian calendar arithmetic for the hand-written timestamp parsers and formatters
/// (certificate dates in Fetch, ISO 8601 and display times in Web, timestamptz in Store): they skip
/// `DateFormatter`, which cost more than the rest of a page or a check's certificate handling.
public enum CivilDate {
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Howard Hinnant's days_from_civil: days from 1970-01-01 to the given date.
    public static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Howard Hinnant's civil_from_days: the date `days` after 1970-01-01 (before it when negative).
    public static func civil(daysSinceEpoch days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `seconds` since the epoch split into whole days and the second of that day, rounding towards
    /// the past, so a moment before 1970 falls on the day it belongs to (-1 is 1969-12-31 23:59:59).
    public static func split(secondsSinceEpoch seconds: Int64) -> (days: Int, secondOfDay: Int) {
        let days = seconds >= 0 ? seconds / 86_400 : -((-seconds - 1) / 86_400) - 1
        return (Int(days), Int(seconds - days * 86_400))
    }

    /// "2026-11-24T12:00:05Z": whole seconds in UTC, the fraction cut, as `JSONEncoder`'s `.iso8601`
    /// writes it (`ISO8601DateFormatter` rounds to milliseconds first), for the JSON and CSV exports and
    /// notification bodies (Foundation's formatters go through ICU: a fifth of the export's CPU).
    public static func iso8601(_ date: Date) -> String {
        let (days, s) = split(secondsSinceEpoch: Int64(date.timeIntervalSince1970.rounded(.down)))
        let c = civil(daysSinceEpoch: days)
        // Written into one buffer: interpolating six numbers was a tenth of the JSON export's CPU.
        var text: [UInt8] = []
        text.reserveCapacity(24)
        text.append(contentsOf: String(c.year).utf8)
        func twoDigits(after separator: Unicode.Scalar, _ n: Int) {
            text.append(UInt8(ascii: separator))
            text.append(UInt8(ascii: "0") + UInt8(n / 10))
            text.append(UInt8(ascii: "0") + UInt8(n % 10))
        }
        twoDigits(after: "-", c.month)
        twoDigits(after: "-", c.day)
        twoDigits(after: "T", s / 3600)
        twoDigits(after: ":", s / 60 % 60)
        twoDigits(after: ":", s % 60)
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }
}
