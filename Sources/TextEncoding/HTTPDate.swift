import Glibc

/// IMF-fixdate (RFC 9110 §5.6.7), e.g. `Sun, 06 Nov 1994 08:49:37 GMT`, for `Date`,
/// `Last-Modified` and `If-Modified-Since`.
public enum HTTPDate {
    private static let days: [StaticString] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months: [StaticString] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                 "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    public static func format(epochSeconds: Int) -> [UInt8] {
        var t = time_t(epochSeconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        var out: [UInt8] = []
        out.reserveCapacity(29)
        append(days[Int(parts.tm_wday) % 7], to: &out)
        out.append(contentsOf: [44, 32])
        twoDigits(Int(parts.tm_mday), to: &out)
        out.append(32)
        append(months[Int(parts.tm_mon) % 12], to: &out)
        out.append(32)
        let year = Int(parts.tm_year) + 1900
        twoDigits(year / 100, to: &out)
        twoDigits(year % 100, to: &out)
        out.append(32)
        twoDigits(Int(parts.tm_hour), to: &out)
        out.append(58)
        twoDigits(Int(parts.tm_min), to: &out)
        out.append(58)
        twoDigits(Int(parts.tm_sec), to: &out)
        out.append(contentsOf: Array(" GMT".utf8))
        return out
    }

    public static func string(epochSeconds: Int) -> String {
        String(decoding: format(epochSeconds: epochSeconds), as: UTF8.self)
    }

    /// Seconds since the epoch for an IMF-fixdate; nil for anything else (obsolete formats are
    /// ignored, which only costs a full response instead of a 304).
    public static func parse(_ text: String) -> Int? {
        let b = Array(text.utf8)
        guard b.count == 29, b[3] == 44, b[4] == 32, b[7] == 32, b[11] == 32, b[16] == 32,
              b[19] == 58, b[22] == 58, b[25] == 32, b[26] == 71, b[27] == 77, b[28] == 84,
              let day = number(b[5...6]), let year = number(b[12...15]),
              let hour = number(b[17...18]), let minute = number(b[20...21]), let second = number(b[23...24])
        else { return nil }
        let monthText = b[8...10]
        guard let month = months.firstIndex(where: { m in
            m.withUTF8Buffer { Array($0) } == Array(monthText)
        }) else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        return Int(timegm(&parts))
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var v = 0
        for c in digits {
            guard c >= 48 && c <= 57 else { return nil }
            v = v * 10 + Int(c - 48)
        }
        return v
    }

    private static func append(_ s: StaticString, to out: inout [UInt8]) {
        s.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    private static func twoDigits(_ v: Int, to out: inout [UInt8]) {
        out.append(UInt8(48 + (v / 10) % 10))
        out.append(UInt8(48 + v % 10))
    }
}
