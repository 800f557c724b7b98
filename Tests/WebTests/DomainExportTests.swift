import Foundation
import Registry
import Store
import TestSupport
import Testing
import Vocabulary
@testable import Web

/// The exports are streamed from keyset batches (`DomainExport`) and say, byte for byte, what the
/// whole-body exports said for the same data.
@Suite(.serialized) struct DomainExportTests {
    /// 240 domains: wildcard and plain entries of the same host (the keyset's second column), names
    /// with markup, quotes, formula starters and non-ASCII, every verdict and none, reasons with
    /// markup, requested and leased checks, expected app IDs and watched URLs on some.
    static func seed(_ db: Database) throws {
        try db.execute("""
            INSERT INTO domains (host, wildcard, display_name, last_verdict, last_reason, platforms, last_checked_at, last_changed_at,
                                 next_check_at, check_requested_at, lease_until, badge_enabled, interval_seconds)
            SELECT 'h' || (g / 2) || '.example', g % 2 = 1,
              CASE g % 5 WHEN 0 THEN 'Bücher <b>&</b> "' || g || '"' WHEN 1 THEN '=cmd|' || g WHEN 2 THEN 'ä.example/' || g ELSE 'h' || (g / 2) || '.example' END,
              (ARRAY['pass', 'warn', 'fail', NULL])[1 + g % 4], CASE WHEN g % 3 = 0 THEN 'The file <script> is 404' END,
              (ARRAY['both', 'apple', 'android'])[1 + g % 3],
              CASE WHEN g % 4 <> 3 THEN timestamptz '2026-11-20 10:00:00+00' + g * interval '1 minute' END,
              CASE WHEN g % 4 <> 3 THEN timestamptz '2026-11-01 10:00:00+00' + g * interval '1 hour' END,
              timestamptz '2026-11-24 10:00:00+00' + g * interval '1 second',
              CASE WHEN g % 11 = 0 THEN timestamptz '2026-11-24 09:00:00+00' END,
              CASE WHEN g % 13 = 0 THEN timestamptz '2099-01-01 00:00:00+00' END,
              g % 2 = 0, 3600 * (1 + g % 24)
            FROM generate_series(1, 240) g
            """)
        try db.execute("""
            INSERT INTO expected_app_ids (domain_id, service, app_id)
            SELECT id, s, 'ABCDE12345.com.example.app' FROM domains, unnest(ARRAY['applinks', 'webcredentials']) s WHERE id % 3 = 0
            """)
        try db.execute("""
            INSERT INTO watched_urls (domain_id, url, expected_outcome, expected_app_id, expected_android)
            SELECT id, 'https://' || host || '/p/' || id, 'stays-in-browser', NULL, CASE WHEN id % 8 = 0 THEN 'com.example.app' END
            FROM domains WHERE id % 4 = 0
            """)
        try db.execute("""
            INSERT INTO expected_android_apps (domain_id, package, fingerprints, upload_keys, position)
            SELECT id, p, $1::jsonb, CASE WHEN id % 2 = 0 THEN $1::jsonb ELSE '[]'::jsonb END, i
            FROM domains, unnest(ARRAY['com.example.app', 'com.example.other']) WITH ORDINALITY AS u(p, i) WHERE id % 5 = 0
            """, "[\"\(Self.fingerprint)\"]")
    }

    static let fingerprint = "AA:" + Array(repeating: "11", count: 31).joined(separator: ":")

    /// What `/export/domains.json` answered before it was streamed: the list built whole.
    /// Each item carries the domain's own expectations, read here one domain at a time (the stream reads
    /// them a batch at a time).
    static func wholeJSON(_ db: Database, now: Date) throws -> [UInt8] {
        APIResponses.json(["domains": try db.exportDomains().map {
            DomainAPI.json($0.record, now: now, detail: (try db.appIDExpectations(domainID: $0.record.id), try db.watchedURLs(domainID: $0.record.id),
                                                         try db.androidAppExpectations(domainID: $0.record.id), latest: nil, androidState: nil))
        }]).body
    }

    /// What `/export/domains.csv` answered before it was streamed.
    static func wholeCSV(_ db: Database, now: Date) throws -> [UInt8] {
        func field(_ s: String) -> String {
            var v = s
            if let f = v.first, "=+-@".contains(f) { v = "'" + v }
            return "\"" + v.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        var out = "host,display_name,wildcard,state,interval_minutes,last_checked_at,last_changed_at,app_ids,watched_urls,android_apps,paused\r\n"
        let iso = ISO8601DateFormatter()
        for e in try db.exportDomains() {
            let d = e.record
            let state = DomainState(verdict: d.lastVerdict, checking: d.isChecking(now: now)).rawValue
            out += [field(d.host), field(d.displayName), d.wildcard ? "true" : "false", state, String(d.intervalSeconds / 60),
                    d.lastCheckedAt.map { iso.string(from: $0) } ?? "", d.lastChangedAt.map { iso.string(from: $0) } ?? "",
                    field(DomainExport.appIDsCell(try db.appIDExpectations(domainID: d.id))),
                    field(DomainExport.watchedURLsCell(try db.watchedURLs(domainID: d.id))),
                    field(DomainExport.androidAppsCell(try db.androidAppExpectations(domainID: d.id))), d.paused ? "true" : "false"]
                .joined(separator: ",") + "\r\n"
        }
        return Array(out.utf8)
    }

    static func streamed(_ export: DomainExport) throws -> (bytes: [UInt8], pieces: Int) {
        var bytes: [UInt8] = [], pieces = 0
        while let piece = try export.next() {
            bytes += piece
            pieces += 1
        }
        return (bytes, pieces)
    }

    @Test func theStreamedExportsAreByteIdenticalToTheWholeOnes() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            try Self.seed(db)
            let now = try #require(ISO8601DateFormatter().date(from: "2026-11-24T12:00:00Z"))
            let json = try Self.wholeJSON(db, now: now), csv = try Self.wholeCSV(db, now: now)
            #expect(json.count > 240 * 100)
            #expect(String(decoding: json, as: UTF8.self).contains("\\u003cb\\u003e"), "the markup escape is exercised")
            // 7: batches that end mid-way; 24: the last batch is full and an empty one ends the list;
            // the default: one batch.
            for batch in [7, 24, DomainExport.defaultBatchSize] {
                let streamedJSON = try Self.streamed(DomainExport(store: db, format: DomainExport.json(now: now), batchSize: batch))
                #expect(streamedJSON.bytes == json, "batch \(batch)")
                #expect(streamedJSON.pieces == 240 / batch + 1, "one piece per batch, batch \(batch)")
                let streamedCSV = try Self.streamed(DomainExport(store: db, format: DomainExport.csv(now: now), batchSize: batch))
                #expect(streamedCSV.bytes == csv, "batch \(batch)")
            }
        }
    }

    /// The CSV export reads back: exported, imported into an empty database, exported again, the
    /// domains carry the same app IDs, watched URLs and Android apps. Its list columns held counts,
    /// which the import refused as app IDs (issue #31).
    @Test func theCSVExportImportsBackIntoAnEmptyDatabase() throws {
        try TestPostgres.withDatabase { (source: Database) throws in
            let registry = DomainRegistry(store: source)
            let upload = "BB:" + Array(repeating: "22", count: 31).joined(separator: ":")
            _ = try registry.register(Registration(
                host: "bücher.example", appIDs: [AppIDEntry(service: "applinks", appID: "ABCDE12345.com.example.app"),
                                                 AppIDEntry(service: "webcredentials", appID: "ABCDE12345.com.example.app"),
                                                 AppIDEntry(service: "appclips", appID: "ZYXWV98765.com.example.clip")],
                watchedURLs: [WatchedURLEntry(url: "https://bücher.example/p/1?a=1,b=2", expect: "ABCDE12345.com.example.app"),
                              WatchedURLEntry(url: "https://bücher.example/help", expect: "browser", android: "com.example.shop"),
                              WatchedURLEntry(url: "https://bücher.example/x", expect: "browser", android: "nothing")],
                intervalMinutes: 60,
                androidApps: [AndroidAppEntry(package: "com.example.shop", fingerprints: [Self.fingerprint, upload], uploadKeys: [upload]),
                              AndroidAppEntry(package: "com.example.other", fingerprints: [Self.fingerprint])]))
            _ = try registry.register(Registration(host: "*.shop.example", appIDs: [AppIDEntry(service: "applinks", appID: "ABCDE12345.com.shop")],
                                                   intervalMinutes: 60))
            let plain = try registry.register(Registration(host: "plain.example", intervalMinutes: 60))
            #expect(try registry.setPaused(domainID: plain, true))
            let csv = String(decoding: try Self.streamed(DomainExport(store: source, format: DomainExport.csv(now: Date()))).bytes, as: UTF8.self)
            // The last column says which domains are paused; the import skips it, as it skips the state.
            #expect(csv.split(separator: "\r\n").first?.hasSuffix(",android_apps,paused") == true, "\(csv)")
            #expect(csv.split(separator: "\r\n").filter { $0.hasSuffix(",true") }.map { $0.prefix(15) } == ["\"plain.example\""], "\(csv)")
            #expect(csv.contains("\"appclips:ZYXWV98765.com.example.clip applinks:ABCDE12345.com.example.app webcredentials:ABCDE12345.com.example.app\""), "\(csv)")

            try TestPostgres.withDatabase { (target: Database) throws in
                let report = try DomainRegistry(store: target).importList(csv)
                #expect(report.refused.isEmpty, "\(report.refused)")
                #expect(report.added.count == 3)
                func contents(_ db: Database) throws -> [String] {
                    try db.exportDomains().map { e in
                        "\(e.record.host) wildcard=\(e.record.wildcard) apps=\(Set(e.appIDList.map { "\($0.service.rawValue):\($0.appID)" }).sorted()) "
                            + "watched=\(e.watchedURLs.map { "\($0.url) \($0.expectedAppID ?? "browser") \($0.android?.rawValue ?? "-")" }) "
                            + "android=\(e.androidApps.map { "\($0.packageName) \($0.fingerprints) upload=\($0.uploadKeys)" })"
                    }
                }
                #expect(try contents(target) == contents(source))
                #expect(try contents(target).count == 3)
            }
        }
    }

    @Test func anEmptyListIsTheSameToo() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let now = Date()
            #expect(try Self.streamed(DomainExport(store: db, format: DomainExport.json(now: now), batchSize: 5)).bytes
                    == Self.wholeJSON(db, now: now))
            #expect(String(decoding: try Self.streamed(DomainExport(store: db, format: DomainExport.json(now: now))).bytes, as: UTF8.self)
                    == #"{"domains":[]}"#)
            #expect(try Self.streamed(DomainExport(store: db, format: DomainExport.csv(now: now))).bytes == Self.wholeCSV(db, now: now))
        }
    }

    /// The routes answer with a stream, not a body built in memory, and keep their headers.
    @Test func theExportRoutesStream() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            try Self.seed(db)
            let app = WebApp(database: db, configuration: TestApp.configuration)
            let browser = WebClient(app: app)
            browser.setUpAdmin()
            for (path, type) in [("/export/domains.json", "application/json"), ("/export/domains.csv", "text/csv; charset=utf-8")] {
                let r = app.respond(WebRequest(method: "GET", target: path, headers: browser.cookieHeader()))
                #expect(r.status == 200)
                #expect(r.stream != nil && r.bodyParts.isEmpty, "\(path) is streamed")
                #expect(r.header("Content-Type") == type)
                #expect(r.header("Content-Disposition")?.hasPrefix("attachment") == true)
                #expect(try r.collected().body.count > 240 * 50)
            }
        }
    }

    /// Export → import round-trips: each item of `/export/domains.json` is a body `POST /api/v1/domains`
    /// registers, and a database filled that way exports the same domains with the same expectations
    /// (app IDs, watched URLs with their Android outcome, the domain's own Android apps and upload keys).
    @Test func theJSONExportRegistersTheSameDomainsAgain() throws {
        let settings = ["host", "interval_minutes", "badge", "platforms", "app_ids", "watched_urls", "android_apps"]
        func items(_ db: Database) throws -> [[String: Any]] {
            let body = try Self.streamed(DomainExport(store: db, format: DomainExport.json(now: Date()), batchSize: 7)).bytes
            let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
            return (object?["domains"] as? [[String: Any]] ?? []).map { $0.filter { settings.contains($0.key) } }
        }
        var exported: [[String: Any]] = []
        try TestPostgres.withDatabase { (db: Database) throws in
            try Self.seed(db)
            // Wildcards register as "*." hosts; the seed's display names are not hosts, so only the host travels.
            try db.execute("DELETE FROM domains WHERE wildcard")
            try db.execute("UPDATE domains SET interval_seconds = 3600")
            exported = try items(db)
        }
        #expect(exported.count == 120)
        #expect(exported.contains { ($0["android_apps"] as? [[String: Any]])?.first?["upload_keys"] as? [String] == [Self.fingerprint] })
        #expect(exported.contains { ($0["watched_urls"] as? [[String: Any]])?.first?["android"] as? String == "com.example.app" })
        #expect(exported.contains { ($0["app_ids"] as? [[String: Any]])?.count == 2 })
        try TestPostgres.withDatabase { (db: Database) throws in
            let app = WebApp(database: db, configuration: TestApp.configuration)
            let token = SecretToken.generate(prefix: "aasa_")
            _ = try db.createAPIToken(name: "import", tokenHash: token.digest, userID: nil, role: .admin)
            for item in exported {
                let r = app.respond(WebRequest(method: "POST", target: "/api/v1/domains",
                                               headers: [("Authorization", "Bearer " + token.value), ("Content-Type", "application/json")],
                                               body: Array(try JSONSerialization.data(withJSONObject: item))))
                #expect(r.status == 201, "\(item): \(String(decoding: r.body, as: UTF8.self))")
            }
            let again = try items(db)
            #expect(again.count == exported.count)
            func text(_ item: [String: Any]) throws -> String {
                String(decoding: try JSONSerialization.data(withJSONObject: item, options: [.sortedKeys]), as: UTF8.self)
            }
            for (a, b) in zip(exported, again) {
                #expect(try text(a) == text(b))
            }
        }
    }
}
