import Testing
import Foundation
@testable import Web

@Suite struct ChartTests {
    @Test func sparklineScalesIntoItsBoxAndMarksFailures() {
        let svg = Sparkline.svg([100, nil, 300, 200], label: "<evil>").rendered
        #expect(svg.contains("points=\"1,22 80,2 119,12\""))
        #expect(svg.contains("class=\"spark-fail\""))
        #expect(svg.contains("aria-label=\"&lt;evil&gt;\""))
        #expect(Sparkline.svg([5], label: "x").rendered.contains("no data"))
    }

    @Test func lineChartHasAxesSeriesGapsAndThreshold() {
        let day: Int64 = 86_400
        let chart = LineChart(title: "Days until the certificate expires", unit: "days",
                              points: [.init(time: 0, value: 80), .init(time: day, value: nil), .init(time: 2 * day, value: 78)],
                              threshold: 30)
        let svg = chart.svg().rendered
        #expect(svg.contains("class=\"threshold\""))
        #expect(svg.components(separatedBy: "class=\"series\"").count == 3)   // two runs around the gap
        #expect(svg.contains("1970-01-01") && svg.contains("1970-01-03"))
        #expect(svg.contains("latest: 78 days"))
        #expect(LineChart(title: "t", unit: "ms", points: []).svg().rendered.contains("no data"))
    }

    @Test func niceNumbersAndDates() {
        #expect(LineChart.niceCeiling(83) == 100)
        #expect(LineChart.niceCeiling(0.42) == 0.5)
        #expect(DisplayTime.dateTime(1_700_000_000) == "2023-11-14 22:13 UTC")
        #expect(DisplayTime.ago(1000, now: 1000 + 7200) == "2 h ago")
    }
}
