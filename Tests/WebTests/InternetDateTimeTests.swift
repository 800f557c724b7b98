import Testing
import Foundation
@testable import Web

@Suite struct InternetDateTimeTests {
    func formatter(_ text: String) -> Date? {
        let f = ISO8601DateFormatter()
        if let d = f.date(from: text) { return d }
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.date(from: text)
    }

    @Test func agreesWithFoundationsFormatter() throws {
        for text in ["2027-03-01T00:00:00Z", "1970-01-01T00:00:00Z", "2024-02-29T23:59:59Z", "2000-12-31T12:30:05Z",
                     "2027-03-01T12:30:05+02:00", "2027-03-01T12:30:05-05:30", "2031-07-15T08:00:00+00:00"] {
            let fast = try #require(InternetDateTime.date(text), "\(text)")
            let slow = try #require(formatter(text), "\(text)")
            #expect(fast == slow, "\(text)")
        }
        let fractional = try #require(InternetDateTime.date("2027-03-01T00:00:00.250Z"))
        #expect(abs(fractional.timeIntervalSince1970 - (try #require(formatter("2027-03-01T00:00:00.250Z"))).timeIntervalSince1970) < 0.001)
    }

    @Test func refusesWhatIsNotThatForm() {
        for text in ["", "2027-03-01", "2027-03-01T00:00:00", "2027-13-01T00:00:00Z", "2023-02-29T00:00:00Z", "2027-03-01T24:00:00Z",
                     "2027-03-01T00:60:00Z", "2027-03-01 00:00:00Z", "2027-03-01T00:00:00Zjunk", "2027-03-01T00:00:00.Z",
                     "2027-03-01T00:00:00+0200", "Mon, 01 Mar 2027 00:00:00 GMT", "２０２７-03-01T00:00:00Z"] {
            #expect(InternetDateTime.date(text) == nil, "\(text)")
        }
    }

    @Test func theTransportSummaryStillReadsOtherForms() {
        #expect(TransportSummary.date("2027-03-01T00:00:00Z") == Date(timeIntervalSince1970: 1_803_859_200))
        #expect(TransportSummary.date(NSNumber(value: 1_803_859_200.0)) == Date(timeIntervalSince1970: 1_803_859_200))
        #expect(TransportSummary.date("not a date") == nil)
    }
}
