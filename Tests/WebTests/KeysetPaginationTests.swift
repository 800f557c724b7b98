import Foundation
import Store
import TestSupport
import Testing
import Vocabulary
@testable import Web

/// Deep pages by keyset: the overview's Next/Previous links carry the neighbouring page's edge
/// (`after`, `before`) where the order allows it, and the API pages by `after` = `next_after`.
@Suite(.serialized) struct KeysetPaginationTests {
    static func seed(_ db: Database, count: Int = 120) throws {
        try db.execute("""
            INSERT INTO domains (host, display_name, last_verdict)
            SELECT 'k' || g || '.example', 'k' || g || '.example', (ARRAY['pass', 'warn', 'fail', NULL])[1 + g % 4]
            FROM generate_series(1, $1::int) g
            """, count)
    }

    /// The domain ids an overview page lists, in order (from the rows' links).
    static func ids(_ html: String) -> [Int64] {
        html.components(separatedBy: "<tr").dropFirst().compactMap { row in
            guard let r = row.range(of: "href=\"/domains/") else { return nil }
            return Int64(row[r.upperBound...].prefix { $0.isNumber })
        }
    }

    static func link(_ html: String, rel: String) -> String? {
        guard let r = html.range(of: "rel=\"\(rel)\" href=\"") else { return nil }
        return String(html[r.upperBound...].prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The API as a read-only token holder calls it: a target to its status and JSON object ([:] if none).
    static func apiCaller(_ db: Database) throws -> (String) -> (status: Int, body: [String: Any]) {
        let app = WebApp(database: db, configuration: TestApp.configuration)
        WebClient(app: app).setUpAdmin()
        let token = SecretToken.generate(prefix: "aasa_")
        _ = try db.createAPIToken(name: "test", tokenHash: token.digest, userID: nil, role: .readOnly)
        return { target in
            let r = app.respond(WebRequest(method: "GET", target: target, headers: [("Authorization", "Bearer " + token.value)]))
            return (r.status, (try? JSONSerialization.jsonObject(with: Data(r.body))) as? [String: Any] ?? [:])
        }
    }

    @Test func overviewLinksWalkByKeysetWhereTheOrderAllows() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            try Self.seed(db)
            let app = WebApp(database: db, configuration: TestApp.configuration)
            let client = WebClient(app: app)
            client.setUpAdmin()
            for start in ["/", "/?sort=host", "/?state=failing", "/?dir=desc", "/?sort=host&dir=desc"] {
                var page = client.get(start).bodyText
                var seen = Self.ids(page)
                var visited = [page]
                while let next = Self.link(page, rel: "next") {
                    #expect(next.contains("after="), "\(next)")
                    page = client.get(next).bodyText
                    seen += Self.ids(page)
                    visited.append(page)
                }
                // The same domains in the same order as numbered pages give.
                var numbered: [Int64] = []
                for n in 1...visited.count {
                    numbered += Self.ids(client.get(start + (start.contains("?") ? "&" : "?") + "page=\(n)").bodyText)
                }
                #expect(seen == numbered && !seen.isEmpty, "\(start)")
                // Previous walks back to each page as it was.
                for index in visited.indices.dropFirst().reversed() {
                    let previous = try #require(Self.link(visited[index], rel: "prev"))
                    #expect(Self.ids(client.get(previous).bodyText) == Self.ids(visited[index - 1]), "\(previous)")
                }
            }
            // A search, or a time order (a domain's place there moves each time it is checked), pages by
            // number: no cursor to carry.
            let searched = client.get("/?q=k&sort=host").bodyText
            #expect(Self.link(searched, rel: "next")?.contains("after=") == false)
            let byTime = client.get("/?sort=last-check").bodyText
            #expect(Self.link(byTime, rel: "next")?.contains("after=") == false)
        }
    }

    /// A search matching `OverviewFilter.rankedSearchLimit` (5,000) domains or more says its total is a
    /// lower bound; a narrower one counts them all.
    @Test func aBroadSearchsTotalIsALowerBound() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            try Self.seed(db, count: 5_100)
            let api = try Self.apiCaller(db)
            func call(_ target: String) -> [String: Any] { api(target).body }
            let broad = call("/api/v1/domains?q=.example&per_page=10&sort=host")
            #expect(broad["total"] as? Int == 5_000 && broad["total_is_lower_bound"] as? Bool == true)
            #expect((broad["domains"] as? [[String: Any]])?.compactMap { $0["host"] as? String }
                    == ["k1.example", "k10.example", "k100.example", "k1000.example", "k1001.example", "k1002.example",
                        "k1003.example", "k1004.example", "k1005.example", "k1006.example"])
            // Its last page is not full: the count.
            let last = call("/api/v1/domains?q=.example&per_page=1000&page=6")
            #expect(last["total"] as? Int == 5_100 && last["total_is_lower_bound"] == nil)
            let narrow = call("/api/v1/domains?q=k1&per_page=10")
            #expect(narrow["total"] as? Int == 1_111 && narrow["total_is_lower_bound"] == nil)
        }
    }

    /// A page past the last of a filtered search still gives the filter's count (it gave the search's alone).
    @Test func aPagePastTheEndCountsUnderEveryFilter() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            try Self.seed(db)
            let api = try Self.apiCaller(db)
            func total(_ target: String) -> Int? { api(target).body["total"] as? Int }
            // k1, k10-k19, k100-k120: 32 hosts; a quarter of them fail (k10, k14, k18, k102, …).
            for filter in ["&state=failing", "&state=passing", ""] {
                let counted = total("/api/v1/domains?q=k1&per_page=5" + filter)
                #expect(counted != nil && (filter.isEmpty ? counted == 32 : (counted ?? 32) < 32), "\(filter)")
                #expect(total("/api/v1/domains?q=k1&per_page=5&page=99" + filter) == counted, "\(filter)")
            }
        }
    }

    @Test func theAPIPagesByNextAfter() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            try Self.seed(db)
            let call = try Self.apiCaller(db)
            func ids(_ body: [String: Any]) -> [Int] { (body["domains"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int } }
            for order in ["", "&sort=host"] {
                var walked: [Int] = []
                var after: Int?
                while true {
                    let r = call("/api/v1/domains?per_page=25" + order + (after.map { "&after=\($0)" } ?? ""))
                    #expect(r.status == 200)
                    walked += ids(r.body)
                    guard let next = r.body["next_after"] as? Int else { break }
                    after = next
                }
                let all = ids(call("/api/v1/domains?per_page=1000" + order).body)
                #expect(walked == all && all.count == 120, "\(order)")
            }
            // Where the order is not an index's, page decides (after is left aside) and no next_after is given.
            let searched = call("/api/v1/domains?after=5&q=k1&page=2&per_page=5")
            #expect(searched.status == 200 && searched.body["next_after"] == nil)
            #expect(ids(searched.body) == ids(call("/api/v1/domains?q=k1&page=2&per_page=5").body))
        }
    }
}
