import AASA
import Foundation

// timestamptz travels as ISO text ("2026-11-22 03:01:48.123456+00"). It is formatted and parsed
// here by arithmetic rather than with DateFormatter: formatters are costly to build, and the civil
// calendar conversion is twenty lines (Howard Hinnant's days_from_civil / civil_from_days).

extension Date: SQLEncodable {
    /// Microsecond precision, UTC, in PostgreSQL's ISO input format.
    public var sqlValue: SQLValue { .text(SQLTimestamp.format(self)) }
}

extension Date: SQLDecodable {
    public static func decode(sqlText text: String?, column: String) throws -> Date {
        let text = try nonNull(text, column)
        guard let date = SQLTimestamp.parse(text) else {
            throw DatabaseError.decoding(column: column, message: "\"\(text)\" is not an ISO timestamp with time zone")
        }
        return date
    }
}

enum SQLTimestamp {
    static func format(_ date: Date) -> String {
        let micros = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        let (secondsTotal, fraction) = floorDivide(micros, 1_000_000)
        let (days, secondOfDay) = CivilDate.split(secondsSinceEpoch: secondsTotal)
        let (year, month, day) = CivilDate.civil(daysSinceEpoch: days)
        let hour = secondOfDay / 3600, minute = secondOfDay / 60 % 60, second = secondOfDay % 60
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2)) \(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
            + ".\(pad(fraction, 6))+00"
    }

    static func parse(_ text: String) -> Date? {
        if text == "infinity" { return .distantFuture }
        if text == "-infinity" { return .distantPast }
        var scanner = DigitScanner(Array(text.utf8))
        guard let year = scanner.number(), scanner.skip("-"), let month = scanner.number(), scanner.skip("-"),
              let day = scanner.number(), scanner.skip(" ") || scanner.skip("T"),
              let hour = scanner.number(), scanner.skip(":"), let minute = scanner.number(), scanner.skip(":"),
              let second = scanner.number() else { return nil }
        var micros: Int64 = 0
        if scanner.skip(".") {
            var digits = 0
            while let digit = scanner.digit() {
                if digits < 6 { micros = micros * 10 + Int64(digit) }
                digits += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 6) { micros *= 10 }
        }
        var offsetSeconds: Int64 = 0
        if let sign = scanner.sign() {
            guard let offsetHours = scanner.number() else { return nil }
            var offset = offsetHours * 3600
            if scanner.skip(":") {
                guard let offsetMinutes = scanner.number() else { return nil }
                offset += offsetMinutes * 60
                if scanner.skip(":") {
                    guard let offsetSecondsPart = scanner.number() else { return nil }
                    offset += offsetSecondsPart
                }
            }
            offsetSeconds = sign * offset
        }
        guard scanner.atEnd, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        let days = Int64(CivilDate.daysSinceEpoch(year: Int(year), month: Int(month), day: Int(day)))
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + Double(micros) / 1_000_000)
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value >= 0 ? value / divisor : -((-value - 1) / divisor) - 1
        return (quotient, value - quotient * divisor)
    }

    private static func pad(_ value: some BinaryInteger, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

/// A cursor over ASCII bytes for the timestamp parser.
private struct DigitScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    mutating func digit() -> Int? {
        guard index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") else { return nil }
        defer { index += 1 }
        return Int(bytes[index] - UInt8(ascii: "0"))
    }

    mutating func number() -> Int64? {
        var value: Int64 = 0
        var count = 0
        while count < 12, let digit = digit() {
            value = value * 10 + Int64(digit)
            count += 1
        }
        return count > 0 ? value : nil
    }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    mutating func sign() -> Int64? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }
}
