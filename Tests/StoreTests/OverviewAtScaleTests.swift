import Foundation
@testable import Store
import TestSupport
import Testing
import Vocabulary

/// The overview and /metrics read kept counts and ordered indexes (migrations 0039, 0040, 0063; issue
/// #17) instead of ranking and counting every domain. These hold the fast paths (every order, either
/// way) to what ranking every matching domain says (the ranked path, which a search takes) and the
/// kept counts to a count of the rows, through inserts, verdict changes, checks, leases and deletes.
@Suite struct OverviewAtScaleTests {
    /// 60 domains: every verdict and none, every platform setting, a latest check that serves
    /// assetlinks.json or not, requested, leased (and one leased while paused), names that tie.
    static func seed(_ db: Database) throws {
        try db.execute("""
            INSERT INTO domains (host, display_name, last_verdict, platforms, last_checked_at, last_changed_at, next_check_at)
            SELECT 'd' || g || '.example', CASE WHEN g % 7 = 0 THEN 'Same.example' ELSE 'd' || g || '.example' END,
              (ARRAY['pass', 'warn', 'fail', NULL])[1 + g % 4], (ARRAY['both', 'apple', 'android'])[1 + g % 3],
              now() - g * interval '1 minute', now() - g * interval '1 hour', now() + interval '1 hour'
            FROM generate_series(1, 60) g
            """)
        // The time orders' ties and never-set times: changes three at a time, some never checked or changed.
        try db.execute("UPDATE domains SET last_changed_at = now() - (id / 3) * interval '1 hour'")
        try db.execute("UPDATE domains SET last_checked_at = NULL WHERE host IN ('d5.example', 'd17.example', 'd40.example')")
        try db.execute("UPDATE domains SET last_changed_at = NULL WHERE host IN ('d6.example', 'd17.example', 'd33.example')")
        try db.execute("""
            INSERT INTO checks (domain_id, attempt_key, started_at, finished_at, verdict, changed, android)
            SELECT id, 'k', now(), now(), coalesce(last_verdict, 'pass'), true,
              CASE id % 5 WHEN 0 THEN NULL
                WHEN 1 THEN '{"verdict": "fail", "serves": true, "identities": [], "findings": [], "watchedURLs": []}'::jsonb
                WHEN 2 THEN '{"verdict": "warn", "serves": false, "identities": [], "findings": [], "watchedURLs": []}'::jsonb
                ELSE '{"verdict": "pass", "serves": false, "findings": [], "watchedURLs": [],
                       "identities": [{"packageName": "a.b", "expectedFingerprints": [], "uploadKeys": [], "named": true, "grantedFingerprints": []}]}'::jsonb END
            FROM domains WHERE last_verdict IS NOT NULL
            """)
        // Each platform's state as the pipeline would have judged the check (migration 0061's rule), and
        // the verdict they make, as every writer keeps them (0062).
        try db.execute("""
            UPDATE domains d SET last_check_id = c.id, last_apple_state = aasa_apple_state(d.platforms, true, c.verdict, c.expectations),
              last_android_state = aasa_android_state(d.platforms, true, c.android),
              last_verdict = aasa_verdict_of_states(aasa_apple_state(d.platforms, true, c.verdict, c.expectations),
                                                    aasa_android_state(d.platforms, true, c.android))
            FROM checks c WHERE c.domain_id = d.id
            """)
        // Being checked: two requested, two leased (as the lease writes it: due now), one leased then paused.
        try db.execute("UPDATE domains SET check_requested_at = now() WHERE host IN ('d3.example', 'd8.example')")
        try db.execute("""
            UPDATE domains SET lease_until = now() + interval '5 minutes', next_check_at = now() - interval '1 second'
            WHERE host IN ('d10.example', 'd13.example', 'd22.example')
            """)
        try db.execute("UPDATE domains SET paused = true WHERE host = 'd22.example'")
    }

    static func filters() -> [OverviewFilter] {
        var all: [OverviewFilter] = []
        for state in [nil] + DomainState.allCases.map(Optional.some) {
            for platform in [nil, Platform.apple, .android] {
                for sort in OverviewSort.allCases {
                    for descending in [false, true] {
                        all.append(OverviewFilter(state: state, platform: platform, sort: sort, descending: descending, pageSize: 1000))
                    }
                }
            }
        }
        return all
    }

    @Test func theIndexedOrdersAgreeWithRankingEveryDomain() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            try Self.seed(db)
            var reference: [DomainState: Int] = [:]
            for row in try db.rows("SELECT " + DomainState.sqlOfDomainRow + " AS state, count(*) AS n FROM domains d GROUP BY 1") {
                reference[try row.decode("state")] = try row.decode("n")
            }
            for f in Self.filters() {
                let fast = try db.overview(f)
                // The ranked path (a search matching every host) over the same filter and order.
                var ranked = f
                ranked.search = ".example"
                let slow = try db.overview(ranked)
                #expect(fast.items.map(\.id) == slow.items.map(\.id), "\(f)")
                #expect(fast.items.map(\.state) == slow.items.map(\.state), "\(f)")
                #expect(fast.matching == slow.matching, "\(f)")
                #expect(fast.counts == reference, "\(f)")
                // Pages cut the same order.
                var page = f, rankedPage = ranked
                (page.pageSize, page.page, rankedPage.pageSize, rankedPage.page) = (7, 3, 7, 3)   // rows 15-21
                #expect(try db.overview(page).items.map(\.id) == db.overview(rankedPage).items.map(\.id), "\(f)")
                // Descending is the ascending order reversed, ties included.
                if f.descending {
                    var ascending = f
                    ascending.descending = false
                    #expect(try fast.items.map(\.id) == db.overview(ascending).items.map(\.id).reversed(), "\(f)")
                }
            }
            let everything = try db.overview(OverviewFilter(sort: .state, pageSize: 1000))
            #expect(everything.counts[.checking] == 5 && everything.matching == 60)
            #expect(everything.items.prefix(5).allSatisfy { $0.state == .failing })
        }
    }

    /// A search that matches `rankedSearchLimit` domains or more walks the order's index, testing each
    /// domain's names: the same pages as ranking every match, counted as far as the pages reach.
    @Test func aBroadSearchWalksTheIndexAndCountsAsFarAsItsPagesReach() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            try Self.seed(db)
            for var f in Self.filters() {
                for search in [".example", "same", "d1"] {
                    f.search = search
                    var ranked = f, broad = f
                    (ranked.rankedSearchLimit, broad.rankedSearchLimit) = (10_000, 5)
                    let all = try db.overview(ranked), walked = try db.overview(broad)
                    #expect(!all.matchingCapped, "\(f)")
                    #expect(walked.items.map(\.id) == all.items.map(\.id), "\(f)")
                    #expect(walked.items.map(\.state) == all.items.map(\.state), "\(f)")
                    // One page holds them all: counted.
                    #expect(walked.matching == all.matching && !walked.matchingCapped, "\(f)")
                    // Rows 9-12: a full page says at least 12 (and, with no other filter, at least the
                    // limit); a page that is not full says how many.
                    (ranked.pageSize, ranked.page, broad.pageSize, broad.page) = (4, 3, 4, 3)
                    let walkedPage = try db.overview(broad)
                    #expect(try walkedPage.items.map(\.id) == db.overview(ranked).items.map(\.id), "\(f)")
                    let searchedAlone = try db.value("SELECT count(*) FROM domain_names WHERE name LIKE $1 OR host LIKE $1",
                                                     Database.searchPattern(search), as: Int.self)
                    guard searchedAlone >= 5 else { continue }   // ranked, counted
                    let unfiltered = f.state == nil && f.platform == nil ? 5 : 0
                    switch all.matching {
                    case 12...: #expect(walkedPage.matchingCapped && walkedPage.matching == max(12, unfiltered), "\(f)")
                    case 9..<12: #expect(!walkedPage.matchingCapped && walkedPage.matching == all.matching, "\(f)")
                    default: #expect(walkedPage.matchingCapped && walkedPage.matching == unfiltered && walkedPage.items.isEmpty, "\(f)")
                    }
                }
            }
            // "same" matches the display name only (hosts are d….example): both names are tested.
            let named = try db.overview(OverviewFilter(search: "same", pageSize: 5, rankedSearchLimit: 2))
            #expect(named.matchingCapped && named.matching == 5 && named.items.count == 5)
        }
    }

    @Test func keptCountsAndLatestVerdictsFollowEveryChange() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            try Self.seed(db)
            try Self.expectCountsMatchTheRows(db)
            // A verdict change, a platform change, a new latest check that stops serving assetlinks.json,
            // a repeat that writes the same latest check, deletes (one statement, several rows).
            try db.execute("UPDATE domains SET last_verdict = 'fail', last_apple_state = 'fail' WHERE host = 'd1.example'")
            try db.execute("UPDATE domains SET platforms = 'apple' WHERE host = 'd2.example'")
            let id: Int64 = try db.value("SELECT id FROM domains WHERE host = 'd6.example'")
            let check: Int64 = try db.value("""
                INSERT INTO checks (domain_id, attempt_key, started_at, verdict, changed, android)
                VALUES ($1, 'k2', now(), 'warn', true, '{"verdict": "fail", "serves": false, "identities": []}'::jsonb) RETURNING id
                """, id)
            try db.execute("""
                UPDATE domains SET last_check_id = $2, last_verdict = 'warn', last_apple_state = 'warn', last_android_state = NULL WHERE id = $1
                """, id, check)
            try db.execute("UPDATE domains SET last_check_id = last_check_id, last_checked_at = now()")
            // Many domains change verdict in one statement, some back and forth between two combinations.
            try db.execute("""
                UPDATE domains SET last_verdict = CASE WHEN last_verdict = 'warn' THEN 'pass' ELSE 'warn' END,
                  last_apple_state = CASE WHEN last_check_id IS NULL THEN NULL WHEN last_verdict = 'warn' THEN 'pass' ELSE 'warn' END,
                  last_android_state = NULL
                WHERE host LIKE 'd2%'
                """)
            try db.execute("DELETE FROM domains WHERE host LIKE 'd1%'")
            try Self.expectCountsMatchTheRows(db)
            #expect(try db.value("SELECT last_android_verdict FROM domains WHERE id = $1", id, as: String?.self) == nil)
            #expect(try db.value("SELECT last_file_verdict FROM domains WHERE id = $1", id, as: String?.self) == "warn")
            try db.execute("TRUNCATE domains CASCADE")
            #expect(try db.value("SELECT count(*) FROM domain_counts", as: Int.self) == 0)
        }
    }

    /// domain_counts equals a count of the rows (by verdict, platforms, file verdicts and platform
    /// states), and each row's kept file verdicts equal its latest check (the triggers' copy of
    /// `AndroidResult.sqlIsWatched`).
    static func expectCountsMatchTheRows(_ db: Database) throws {
        func line(_ row: Row) throws -> String {
            try (0..<7).map { i in i == 6 ? String(try row.decode(i, as: Int.self)) : try row.decode(i, as: String.self) }.joined(separator: " ")
        }
        let kept = try db.rows("""
            SELECT verdict, platforms, file_verdict, android_verdict, apple_state, android_state, n FROM domain_counts WHERE n <> 0
            ORDER BY 1, 2, 3, 4, 5, 6
            """).map(line)
        let counted = try db.rows("""
            SELECT coalesce(last_verdict, ''), platforms, coalesce(last_file_verdict, ''), coalesce(last_android_verdict, ''),
              coalesce(last_apple_state, ''), coalesce(last_android_state, ''), count(*) FROM domains GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
            """).map(line)
        #expect(kept == counted)
        let disagreeing: Int = try db.value("SELECT count(*) FROM domains d LEFT JOIN checks c ON c.id = d.last_check_id WHERE "
            + "d.last_file_verdict IS DISTINCT FROM c.verdict OR d.last_android_verdict IS DISTINCT FROM (CASE WHEN d.platforms = 'android' OR "
            + AndroidResult.sqlIsWatched + " THEN c.android->>'verdict' END)")
        #expect(disagreeing == 0)
    }

    @Test func theDefaultOrderReadsItsIndex() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            try Self.seed(db)
            // Sorting is off, so only an index in this order gives a plan without a Sort node: the
            // index's expression must be DomainState.sqlVerdictRank's, case for case.
            let plan = try db.withTransaction { connection in
                try connection.execute("SET LOCAL enable_sort = off")
                try connection.execute("SET LOCAL enable_seqscan = off")
                return try connection.rows("EXPLAIN SELECT d.id FROM domains d ORDER BY " + DomainState.sqlVerdictRank
                                           + ", lower(d.display_name), d.id LIMIT 5").map { try $0.decode("QUERY PLAN", as: String.self) }
            }
            #expect(plan.contains { $0.contains("domains_state_order") } && !plan.contains { $0.contains("Sort") }, "\(plan)")
        }
    }

    /// The domains being checked are found through the requested and leased indexes, whatever the
    /// due backlog (at 1M domains with 166,522 due, reading them through the due index took 144 ms),
    /// and they are exactly the domains whose state is "checking".
    @Test func theDomainsBeingCheckedAreFoundThroughTheirLeases() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            try Self.seed(db)
            try db.execute("UPDATE domains SET next_check_at = now() - interval '1 minute' WHERE lease_until IS NULL")   // a backlog
            let reference: [Int64] = try db.rows("SELECT d.id FROM domains d WHERE " + DomainState.sqlOfDomainRow + " = 'checking' ORDER BY d.id")
                .map { try $0.decode("id") }
            #expect(reference.count == 5)
            #expect(try db.checkingDomains().map(\.id).sorted() == reference)
            let plan = try db.withTransaction { connection in
                try connection.execute("SET LOCAL enable_seqscan = off")
                return try connection.rows("EXPLAIN " + Database.sqlCheckingDomains).map { try $0.decode("QUERY PLAN", as: String.self) }
            }
            #expect(plan.contains { $0.contains("domains_leased") } && !plan.contains { $0.contains("domains_due") }, "\(plan)")
        }
    }

    @Test func searchFindsSubstringsOfHostAndDisplayName() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            try Self.seed(db)
            try db.execute("INSERT INTO domains (host, display_name) VALUES ('xn--bcher-kva.example', 'bücher.example')")
            func hosts(_ q: String) throws -> [String] {
                try db.overview(OverviewFilter(search: q, sort: .host, pageSize: 100)).items.map(\.host)
            }
            #expect(try hosts("ÜCHER") == ["xn--bcher-kva.example"])
            #expect(try hosts("bcher-k") == ["xn--bcher-kva.example"])
            #expect(try hosts("d1") .count == 11)
            #expect(try hosts("d1_").isEmpty)
            // An edit renames the searched copy too.
            try db.execute("UPDATE domains SET display_name = 'renamed.example' WHERE host = 'd59.example'")
            #expect(try hosts("renamed") == ["d59.example"])
        }
    }

    /// Keyset pages (`after`: the last id of the page before; `before`: the first id of the page
    /// after) walk the same order as offsets, forwards and backwards, with the domains being checked
    /// merged in at their rank, for every filter; a cursor that names no domain falls back to the offset.
    @Test func keysetPagesWalkTheSameOrderAsOffsets() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            try Self.seed(db)
            for var f in Self.filters() where f.allowsKeyset {
                f.pageSize = 1000
                let all = try db.overview(f).items.map(\.id)
                f.pageSize = 7
                var forwards: [Int64] = []
                var pages: [[Int64]] = []
                while true {
                    f.after = forwards.last
                    let page = try db.overview(f).items.map(\.id)
                    if page.isEmpty { break }
                    pages.append(page)
                    forwards += page
                }
                #expect(forwards == all, "\(f)")
                // Backwards from the last page, each page before the first id of the one after it.
                f.after = nil
                for index in pages.indices.dropLast().reversed() {
                    f.before = pages[index + 1].first
                    #expect(try db.overview(f).items.map(\.id) == pages[index], "\(f)")
                }
                f.before = nil
                f.after = 999_999   // no such domain: the offset decides
                f.page = 2   // rows 8-14
                #expect(try db.overview(f).items.map(\.id) == Array(all.dropFirst(7).prefix(7)), "\(f)")
                f.page = 1
            }
        }
    }

    /// The time orders, either way, read their index from one end (migration 0063): no Sort node.
    @Test func theTimeOrdersReadTheirIndexes() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            try Self.seed(db)
            for (column, index) in [("last_checked_at", "domains_checked_order"), ("last_changed_at", "domains_changed_order")] {
                for order in [" DESC NULLS LAST, d.id", " ASC NULLS FIRST, d.id DESC"] {
                    let query = SQL(vocabularyFragment: "SELECT d.id FROM domains d ORDER BY d.\(column)\(order) LIMIT 5")
                    let plan = try db.withTransaction { connection in
                        try connection.execute("SET LOCAL enable_sort = off")
                        try connection.execute("SET LOCAL enable_seqscan = off")
                        return try connection.query("EXPLAIN " + query, []).rows.map { try $0.decode("QUERY PLAN", as: String.self) }
                    }
                    #expect(plan.contains { $0.contains(index) } && !plan.contains { $0.contains("Sort") }, "\(plan)")
                }
            }
        }
    }

    /// The keyset walk starts in the order's index at the cursor (an index condition, no Sort node),
    /// as `indexedPage` writes it: the state order with its rank, the host order without.
    @Test func aKeysetPageReadsItsIndexFromTheCursor() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            try Self.seed(db)
            let state: SQL = "SELECT d.id FROM domains d WHERE (" + DomainState.sqlVerdictRank
                + ", lower(d.display_name), d.id) > ($1::int, $2::text, $3::bigint) ORDER BY " + DomainState.sqlVerdictRank
                + ", lower(d.display_name), d.id LIMIT 5"
            let host: SQL = "SELECT d.id FROM domains d WHERE $1::int IS NOT NULL AND (lower(d.display_name), d.id) > ($2::text, $3::bigint)"
                + " ORDER BY lower(d.display_name), d.id LIMIT 5"
            for (query, index) in [(state, "domains_state_order"), (host, "domains_name_order")] {
                let plan = try db.withTransaction { connection in
                    try connection.execute("SET LOCAL enable_sort = off")
                    try connection.execute("SET LOCAL enable_seqscan = off")
                    return try connection.query("EXPLAIN " + query, [1, "d3.example", Int64(3)]).rows.map { try $0.decode("QUERY PLAN", as: String.self) }
                }
                #expect(plan.contains { $0.contains(index) } && plan.contains { $0.contains("Index Cond") }
                        && !plan.contains { $0.contains("Sort") }, "\(plan)")
            }
        }
    }
}
