import Testing
import Foundation
@testable import Store
import TestSupport
@testable import Web

/// Every reader of a domain's history sees unchanged repeats and roll-ups, not only the `checks`
/// rows of changed checks: the domain page's chart and timeline, the overview's sparkline, the API
/// and /metrics. Each history is written through the product's own path (`RecordedHistory`).
@Suite(.serialized) struct HistoryReaderTests {
    func adminClient(_ db: Database) -> WebClient {
        let client = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
        client.setUpAdmin()
        return client
    }

    /// The coordinates of the first `<polyline …>` series after `marker` in `html`, up to `</svg>`.
    func plotted(_ html: String, after marker: String) -> [String] {
        guard let start = html.range(of: marker) else { return [] }
        let chart = html[start.upperBound...]
        let end = chart.range(of: "</svg>")?.lowerBound ?? chart.endIndex
        var coordinates: [String] = []
        var rest = chart[..<end]
        while let p = rest.range(of: "<polyline") {
            let attrs = rest[p.upperBound...]
            guard let q = attrs.range(of: "points=\"") else { break }
            let values = attrs[q.upperBound...].prefix { $0 != "\"" }
            coordinates += values.split(separator: " ").map(String.init)
            rest = attrs[q.upperBound...]
        }
        return coordinates
    }

    @Test func chartAndSparklineShowEveryUnchangedRepeat() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let history = try RecordedHistory(db: db, host: "steady.example")
            let start = Date().addingTimeInterval(-10 * 3600)
            try history.check(at: start, latency: 100, changed: true)
            let repeats = 6
            for i in 1...repeats {
                try history.check(at: start.addingTimeInterval(Double(i) * 3600), latency: 100 + i * 20, changed: false)
            }
            #expect(try db.value("SELECT count(*) FROM checks") as Int == 1)
            #expect(try db.value("SELECT count(*) FROM check_repeats") as Int == repeats)

            let points = try db.chartPoints(domainID: history.domainID, since: start.addingTimeInterval(-86_400), limit: 400)
            #expect(points.count == repeats + 1)
            #expect(points.map(\.latencyMilliseconds) == [100] + (1...repeats).map { 100 + $0 * 20 })

            let client = adminClient(db)
            let page = client.get("/domains/\(history.domainID)").bodyText
            #expect(plotted(page, after: "aria-label=\"Response time\"").count == repeats + 1)
            #expect(page.contains("(latest: \(100 + repeats * 20) ms)"))

            let overview = client.get("/").bodyText
            #expect(plotted(overview, after: "<svg class=\"spark\"").count == repeats + 1)
            let item = try #require(try db.overview(OverviewFilter(sort: .host, pageSize: 10)).items.first)
            #expect(item.latencies == (1...repeats).reversed().map { 100 + $0 * 20 } + [100])
        }
    }

    @Test func sparklineKeepsTheLatestTwentyWithGapsAndNoPadding() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let history = try RecordedHistory(db: db, host: "spark.example")
            func latencies() throws -> [Int?] {
                try #require(try db.overview(OverviewFilter(search: "spark", sort: .host, pageSize: 10)).items.first).latencies
            }
            // Registered, never checked: no points (the fixed-width list's padding is not a point).
            #expect(try latencies().isEmpty)
            let start = Date().addingTimeInterval(-30 * 3600)
            try history.check(at: start, latency: 100, changed: true)
            // A check that measured no time is a gap; one over 32,767 ms is drawn at that ceiling.
            try db.insertCheck(NewCheckRow(domainID: history.domainID, startedAt: start.addingTimeInterval(60),
                                           finishedAt: start.addingTimeInterval(61), verdict: .fail, originBody: nil,
                                           latencyMilliseconds: nil, changed: true))
            try history.check(at: start.addingTimeInterval(3600), latency: 45_000, changed: true, verdict: .warn)
            #expect(try latencies() == [32_767, nil, 100])
            // Only the newest 20 stay, newest first.
            for i in 1...25 { try history.check(at: start.addingTimeInterval(Double(i + 1) * 3600), latency: i, changed: false) }
            #expect(try latencies() == (6...25).reversed().map { Optional($0) })
        }
    }

    @Test func rolledUpHistoryStillDraws() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let history = try RecordedHistory(db: db, host: "old.example")
            let now = Date()
            let start = now.addingTimeInterval(-30 * 86_400)
            try history.check(at: start, latency: 80, changed: true)
            // Three checks a day for 20 days, then the retention job folds everything older than a week.
            var latencies: [Int] = []
            for day in 1...20 {
                for hour in 0..<3 {
                    let latency = 50 + (day * 7 + hour * 30) % 200
                    latencies.append(latency)
                    try history.check(at: start.addingTimeInterval(Double(day) * 86_400 + Double(hour) * 3600), latency: latency, changed: false)
                }
            }
            let folded = try db.rollUpRepeats(olderThan: .seconds(7 * 86_400), now: now)
            #expect(folded == latencies.count)
            #expect(try db.value("SELECT count(*) FROM check_repeats") as Int == 0)
            #expect(try db.value("SELECT count(*) FROM check_rollups") as Int > 0)

            let points = try db.chartPoints(domainID: history.domainID, since: now.addingTimeInterval(-365 * 86_400), limit: 400)
            #expect(points.reduce(0) { $0 + $1.checkCount } == latencies.count + 1)
            #expect(points.count > 2)
            #expect(points.compactMap(\.latencyMaxMilliseconds).max() == latencies.max())
            #expect(points.compactMap(\.latencyMinMilliseconds).min() == latencies.min())
            let last = try #require(points.last)
            #expect(abs(last.time.timeIntervalSince(start.addingTimeInterval(20 * 86_400 + 2 * 3600))) < 1)

            let client = adminClient(db)
            let page = client.get("/domains/\(history.domainID)").bodyText
            #expect(plotted(page, after: "aria-label=\"Response time\"").count == points.count)
            #expect(page.contains("<polygon class=\"band\""))   // the roll-ups' min–max range
            #expect(page.contains("unchanged × \(latencies.count),"))
            let overview = client.get("/").bodyText
            #expect(plotted(overview, after: "<svg class=\"spark\"").count == 20)
        }
    }

    @Test func timelineCollapsesUnchangedRunsBetweenChanges() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let history = try RecordedHistory(db: db, host: "changing.example")
            let now = Date()
            let first = now.addingTimeInterval(-20 * 86_400)
            try history.check(at: first, latency: 90, changed: true, file: RecordedHistory.firstFile)
            for day in 1...4 { try history.check(at: first.addingTimeInterval(Double(day) * 86_400), latency: 90, changed: false) }
            let second = now.addingTimeInterval(-10 * 3600)
            try history.check(at: second, latency: 95, changed: true, verdict: .warn, file: RecordedHistory.secondFile)
            for hour in 1...3 { try history.check(at: second.addingTimeInterval(Double(hour) * 3600), latency: 95, changed: false) }
            // The older run is rolled up, the newer one still repeats.
            #expect(try db.rollUpRepeats(olderThan: .seconds(7 * 86_400), now: now) == 4)

            let client = adminClient(db)
            let page = client.get("/domains/\(history.domainID)").bodyText
            let timeline = try #require(page.range(of: "id=\"timeline\"").map { String(page[$0.upperBound...]) })
            let newerRun = try #require(timeline.range(of: "unchanged × 3, "))
            let olderRun = try #require(timeline.range(of: "unchanged × 4, "))
            let firstHash = String(SHA256.hex(RecordedHistory.firstFile).prefix(12))
            let secondHash = String(SHA256.hex(RecordedHistory.secondFile).prefix(12))
            let newerCheck = try #require(timeline.range(of: secondHash))
            let olderCheck = try #require(timeline.range(of: firstHash))
            // Newest first: the run after the second change, that change, the run before it, the first check.
            #expect(newerRun.lowerBound < newerCheck.lowerBound)
            #expect(newerCheck.lowerBound < olderRun.lowerBound)
            #expect(olderRun.lowerBound < olderCheck.lowerBound)
            #expect(timeline.components(separatedBy: "class=\"unchanged\"").count - 1 == 2)

            let token = SecretToken.generate(prefix: "aasa_")
            _ = try db.createAPIToken(name: "history", tokenHash: token.digest, userID: nil, role: .admin)
            let api = client.app.respond(WebRequest(method: "GET", target: "/api/v1/domains/\(history.domainID)/checks",
                                                    headers: [("Authorization", "Bearer " + token.value)]))
            #expect(api.status == 200)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(api.body)) as? [String: Any])
            let checks = try #require(json["checks"] as? [[String: Any]])
            #expect(checks.count == 2)
            #expect((checks.first?["unchanged_after"] as? [String: Any])?["count"] as? Int == 3)
            #expect((checks.last?["unchanged_after"] as? [String: Any])?["count"] as? Int == 4)
        }
    }

    @Test func metricsCountEveryCheck() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let history = try RecordedHistory(db: db, host: "counted.example")
            let now = Date()
            try history.check(at: now.addingTimeInterval(-10 * 86_400), latency: 40, changed: true)
            for hour in 1...3 { try history.check(at: now.addingTimeInterval(-9 * 86_400 + Double(hour) * 3600), latency: 40, changed: false) }
            for hour in 1...5 { try history.check(at: now.addingTimeInterval(-Double(7 - hour) * 3600), latency: 30, changed: false) }
            try history.check(at: now.addingTimeInterval(-1800), latency: 300, changed: true, verdict: .fail)
            for minutes in [20.0, 10.0] { try history.check(at: now.addingTimeInterval(-minutes * 60), latency: 2000, changed: false, verdict: .fail) }
            #expect(try db.rollUpRepeats(olderThan: .seconds(7 * 86_400), now: now) == 3)

            let metrics = WebApp(database: db, configuration: TestApp.configuration)
                .respond(WebRequest(method: "GET", target: "/metrics")).bodyText
            // pass: the first check, 3 rolled up and 5 repeats; fail: the second check and its 2 repeats.
            #expect(metrics.contains("aasa_checks_total{verdict=\"pass\"} 9"))
            #expect(metrics.contains("aasa_checks_total{verdict=\"fail\"} 3"))
            // A Prometheus histogram counts every check ever made, at the time it was made (rolling up
            // changes nothing): 9 at <= 50 ms (the first check, 3 rolled-up and 5 recent repeats), the
            // failing check at 300 ms, its 2 repeats at 2000 ms.
            let cumulative: [(String, Int)] = [("0.05", 9), ("0.1", 9), ("0.25", 9), ("0.5", 10), ("1", 10), ("2.5", 12), ("10", 12), ("+Inf", 12)]
            for (le, n) in cumulative {
                #expect(metrics.contains("aasa_check_latency_seconds_bucket{le=\"\(le)\"} \(n)\n"), "le=\(le): \(metrics)")
            }
            #expect(metrics.contains("aasa_check_latency_seconds_count 12\n"))
            let sum = 4 * 40 + 5 * 30 + 300 + 2 * 2000   // 4610 ms
            #expect(metrics.contains("aasa_check_latency_seconds_sum 4.61\n"))

            // A counter never goes down: deleting the domain keeps its checks in the total, and the
            // next domain's checks add to it.
            #expect(try db.deleteDomain(id: history.domainID))
            let other = try RecordedHistory(db: db, host: "next.example")
            try other.check(at: now.addingTimeInterval(-60), latency: 40, changed: true)
            let after = WebApp(database: db, configuration: TestApp.configuration)
                .respond(WebRequest(method: "GET", target: "/metrics")).bodyText
            #expect(after.contains("aasa_checks_total{verdict=\"pass\"} 10"), "\(after)")
            #expect(after.contains("aasa_checks_total{verdict=\"fail\"} 3"), "\(after)")
            #expect(after.contains("aasa_check_latency_seconds_bucket{le=\"0.05\"} 10\n"), "\(after)")
            #expect(after.contains("aasa_check_latency_seconds_count 13\n"), "\(after)")
            #expect(after.contains("aasa_check_latency_seconds_sum 4.65\n") && sum + 40 == 4650, "\(after)")
        }
    }
}
