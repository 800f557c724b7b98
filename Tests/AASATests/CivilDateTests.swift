import AASA
import Foundation
import Testing

@Suite struct CivilDateTests {
    @Test func epochAndKnownDays() {
        #expect(CivilDate.civil(daysSinceEpoch: 0) == (1970, 1, 1))
        #expect(CivilDate.civil(daysSinceEpoch: 20_416) == (2025, 11, 24))
        #expect(CivilDate.daysSinceEpoch(year: 2025, month: 11, day: 24) == 20_416)
    }

    @Test func negativeDaysFallBeforeTheEpoch() {
        #expect(CivilDate.civil(daysSinceEpoch: -1) == (1969, 12, 31))
        #expect(CivilDate.civil(daysSinceEpoch: -719_468) == (0, 3, 1))
        #expect(CivilDate.civil(daysSinceEpoch: -719_469) == (0, 2, 29))   // year 0 is a leap year
        #expect(CivilDate.daysSinceEpoch(year: -1, month: 12, day: 31) == -719_529)
    }

    @Test func leapYears() {
        #expect(CivilDate.daysIn(month: 2, year: 2024) == 29)
        #expect(CivilDate.daysIn(month: 2, year: 1900) == 28)
        #expect(CivilDate.daysIn(month: 2, year: 2000) == 29)
        #expect(CivilDate.daysIn(month: 2, year: 2025) == 28)
        #expect(CivilDate.civil(daysSinceEpoch: CivilDate.daysSinceEpoch(year: 2000, month: 2, day: 29)) == (2000, 2, 29))
        #expect(CivilDate.daysSinceEpoch(year: 2100, month: 3, day: 1) - CivilDate.daysSinceEpoch(year: 2100, month: 2, day: 28) == 1)
    }

    @Test func everyDayRoundTrips() {
        for days in stride(from: -800_000, through: 800_000, by: 97) {
            let c = CivilDate.civil(daysSinceEpoch: days)
            #expect((1...12).contains(c.month) && (1...CivilDate.daysIn(month: c.month, year: c.year)).contains(c.day))
            #expect(CivilDate.daysSinceEpoch(year: c.year, month: c.month, day: c.day) == days)
        }
    }

    @Test func secondsSplitTowardsThePast() {
        #expect(CivilDate.split(secondsSinceEpoch: 0) == (0, 0))
        #expect(CivilDate.split(secondsSinceEpoch: 86_399) == (0, 86_399))
        #expect(CivilDate.split(secondsSinceEpoch: 86_400) == (1, 0))
        #expect(CivilDate.split(secondsSinceEpoch: -1) == (-1, 86_399))
        #expect(CivilDate.split(secondsSinceEpoch: -86_400) == (-1, 0))
        #expect(CivilDate.split(secondsSinceEpoch: -86_401) == (-2, 86_399))
    }

    /// The text Foundation's `JSONEncoder` writes for `.iso8601` (the API's dates), for moments from
    /// 1900 to 2200 with fractions of a second (cut, not rounded), either side of midnight and of the
    /// epoch. (`ISO8601DateFormatter` differs from both by a second when the fraction is .9995 or
    /// more: it rounds to milliseconds first.)
    @Test func iso8601IsFoundationsText() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        var seconds: [Double] = [0, -0.5, -1, 59.999, 86_399.999_9, 951_782_400, 4_102_444_799.75, -2_208_988_800]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            seconds.append(-2_208_988_800 + Double(state >> 11) / Double(1 << 53) * 9_467_280_000)
        }
        for s in seconds {
            let date = Date(timeIntervalSince1970: s)
            let foundations = String(decoding: try encoder.encode([date]), as: UTF8.self)
            #expect("[\"" + CivilDate.iso8601(date) + "\"]" == foundations, "\(s)")
        }
    }
}
