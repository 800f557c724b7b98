import Testing
@testable import Web

/// How summarised history looks: a roll-up's range as a band, a run of unchanged checks as one line.
@Suite struct HistoryRenderingTests {
    @Test func aBandIsDrawnOnlyWhereAPointSummarisesSeveralChecks() {
        let single = LineChart(title: "Response time", unit: "ms", points: [
            .init(time: 0, value: 100), .init(time: 3600, value: 120), .init(time: 7200, value: 90),
        ]).svg().rendered
        #expect(!single.contains("class=\"band\""))
        let summarised = LineChart(title: "Response time", unit: "ms", points: [
            .init(time: 0, value: 100, low: 40, high: 190), .init(time: 86_000, value: 110, low: 45, high: 200),
            .init(time: 90_000, value: 120),
        ]).svg().rendered
        let band = summarised.components(separatedBy: "<polygon class=\"band\" points=\"")
        #expect(band.count == 2)
        // Three points forwards along the highs, three back along the lows.
        #expect(band.last?.prefix { $0 != "\"" }.split(separator: " ").count == 6)
        // The scale reaches the highest high, not only the highest mean.
        #expect(summarised.contains(">200</text>"))
    }

    @Test func anUnchangedRunIsOneLineWithItsCountAndSpan() {
        let day = Int64(1_795_000_000) / 86_400 * 86_400   // a UTC midnight
        let sameDay = DomainPage.unchangedRun(.init(count: 240, first: day + 10 * 3600, last: day + 20 * 3600)).rendered
        #expect(sameDay.contains("unchanged × 240, \(DisplayTime.date(day)) 10:00–20:00 UTC"))
        let days = DomainPage.unchangedRun(.init(count: 3, first: day, last: day + 2 * 86_400)).rendered
        #expect(days.contains("unchanged × 3, \(DisplayTime.dateTime(day)) – \(DisplayTime.dateTime(day + 2 * 86_400))"))
        let one = DomainPage.unchangedRun(.init(count: 1, first: day + 60, last: day + 60)).rendered
        #expect(one.contains("unchanged × 1, \(DisplayTime.dateTime(day + 60))<"))
    }
}
