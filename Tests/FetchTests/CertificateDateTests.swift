import Foundation
import Testing
@testable import Fetch

/// The certificate dates curl prints (OpenSSL's `ASN1_TIME_print` form, and the ISO-like form of
/// newer curl versions), read without a DateFormatter.
@Suite struct CertificateDateTests {
    private func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))
    }

    @Test func openSSLForm() {
        #expect(CertificateDate.date("Dec 12 06:30:00 2026 GMT") == utc(2026, 12, 12, 6, 30, 0))
        #expect(CertificateDate.date("Nov 22 03:00:00 2027 GMT") == utc(2027, 11, 22, 3, 0, 0))
    }

    @Test func singleDigitDayIsPaddedWithASpace() {
        #expect(CertificateDate.date("Jan  2 23:59:59 2030 GMT") == utc(2030, 1, 2, 23, 59, 59))
        // Tolerant of a single space too, and of the blank curl leaves after the field's colon.
        #expect(CertificateDate.date("Jan 2 23:59:59 2030 GMT") == utc(2030, 1, 2, 23, 59, 59))
        #expect(CertificateDate.date(" Feb 29 00:00:00 2028 GMT ") == utc(2028, 2, 29, 0, 0, 0))
    }

    @Test func fractionalSecondsAndNoZone() {
        let date = CertificateDate.date("Mar  9 10:11:12.5 2031 GMT")
        #expect(date == utc(2031, 3, 9, 10, 11, 12).map { $0.addingTimeInterval(0.5) })
        #expect(CertificateDate.date("Mar  9 10:11:12 2031") == utc(2031, 3, 9, 10, 11, 12))
    }

    @Test func newerCurlForm() {
        #expect(CertificateDate.date("2027-11-22 03:00:00 GMT") == utc(2027, 11, 22, 3, 0, 0))
        #expect(CertificateDate.date("2049-12-31 23:59:59 GMT") == utc(2049, 12, 31, 23, 59, 59))
    }

    @Test func refusesWhatIsNotADate() {
        for text in ["", "GMT", "Foo 12 06:30:00 2026 GMT", "dec 12 06:30:00 2026 GMT", "Feb 30 00:00:00 2027 GMT",
                     "Feb 29 00:00:00 2027 GMT", "Dec 12 24:00:00 2026 GMT", "Dec 12 06:60:00 2026 GMT",
                     "Dec 12 06:30 2026 GMT", "Dec 12 06:30:00 26 GMT", "Dec 12 06:30:00 2026 PST",
                     "Dec 12 06:30:00 2026 GMT trailing", "2027-13-01 00:00:00 GMT", "2027-11-22", "Dec12 06:30:00 2026 GMT"] {
            #expect(CertificateDate.date(text) == nil, "\(text)")
        }
    }

    /// Every day over several years (leap years and the 2000/2100 rules included), printed the way
    /// OpenSSL does, reads back as the same instant a DateFormatter gives.
    @Test func agreesWithAFormatterOverManyDays() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "MMM d HH:mm:ss yyyy"
        let start = try #require(utc(1999, 12, 25, 7, 8, 9))
        var checked = 0
        for step in stride(from: 0, to: 366 * 110, by: 7) {   // to 2109, every week, rotating weekdays and months
            let date = start.addingTimeInterval(Double(step) * 86_400 + Double(step % 86_400))
            let plain = formatter.string(from: date)                        // "Jan 2 …" → pad the day as OpenSSL does
            let parts = plain.split(separator: " ")
            let printed = "\(parts[0]) \(parts[1].count == 1 ? " " : "")\(parts[1]) \(parts[2]) \(parts[3]) GMT"
            #expect(CertificateDate.date(printed) == date, "\(printed)")
            checked += 1
        }
        #expect(checked > 5000)
    }

    @Test func leafFactsReadTheExpiry() {
        let chain = CertificateChainText(certificates: [[
            (name: "Subject", value: "CN=example.com"),
            (name: "Issuer", value: "CN=Test CA"),
            (name: "X509v3 Subject Alternative Name", value: "DNS:example.com, DNS:www.example.com"),
            (name: "Expire date", value: "Jan  2 06:30:00 2026 GMT"),
        ]])
        let facts = chain.leafFacts()
        #expect(facts?.notAfter == utc(2026, 1, 2, 6, 30, 0))
        #expect(facts?.subjectAltNames == ["example.com", "www.example.com"])
    }
}
