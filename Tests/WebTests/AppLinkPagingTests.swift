import AASA
import Foundation
@testable import Monitor
import Store
import Testing
import TestSupport
import Vocabulary
@testable import Web

/// The app detail's keyset pages and the link counts kept per link (issue #17), on a real PostgreSQL.
extension AppFlowTests {
    /// A client of the API with an admin token.
    func apiCaller(_ db: Database) throws -> (String, String, String) -> (status: Int, body: [String: Any]) {
        let app = WebApp(database: db, configuration: TestApp.configuration)
        let token = SecretToken.generate(prefix: "aasa_")
        _ = try db.createAPIToken(name: "test", tokenHash: token.digest, userID: nil, role: .admin)
        return { method, target, json in
            let r = app.respond(WebRequest(method: method, target: target, headers: [("Authorization", "Bearer " + token.value),
                                                                                      ("Content-Type", "application/json")], body: Array(json.utf8)))
            return (r.status, (try? JSONSerialization.jsonObject(with: Data(r.body))) as? [String: Any] ?? [:])
        }
    }

    /// Following `next_after` from the first page reads every link of the app exactly once, in host
    /// order, also when the domain a cursor names leaves the app between two requests; the first page
    /// keeps the members a client that read the whole matrix knew.
    @Test func theAPIAppDetailPagesItsDomainsByKeyset() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let call = try apiCaller(db)
            let hosts = (0..<11).map { String(format: "p%02d.example", $0) }
            let entries = hosts.flatMap { ["\"applinks:\($0)\"", "\"webcredentials:\($0)\""] }.joined(separator: ",")
            let created = call("POST", "/api/v1/apps", #"{"name": "Paged", "apple_app_ids": ["\#(Self.app)"], "apple_domains": [\#(entries)]}"#)
            #expect(created.status == 201, "\(created.body)")
            let appID = try #require(created.body["id"] as? Int)
            #expect(created.body["domain_count"] as? Int == 11 && created.body["next_after"] == nil, "the default page holds all 11")

            struct Link: Hashable { let domain: Int, platform: String, service: String }
            func links(_ page: [String: Any]) -> [Link] {
                (page["domains"] as? [[String: Any]] ?? []).flatMap { row in
                    (row["cells"] as? [[String: Any]] ?? []).map {
                        Link(domain: row["domain_id"] as? Int ?? 0, platform: $0["platform"] as? String ?? "", service: $0["service"] as? String ?? "")
                    }
                }
            }
            func follow(limit: Int) -> (links: [Link], hosts: [String], pages: Int) {
                var seen: [Link] = [], order: [String] = [], pages = 0
                var target = "/api/v1/apps/\(appID)?limit=\(limit)"
                while true {
                    let page = call("GET", target, "")
                    #expect(page.status == 200, "\(page.body)")
                    pages += 1
                    #expect(page.body["name"] as? String == "Paged" && page.body["apple_app_ids"] as? [String] == [Self.app]
                            && page.body["watched_urls"] != nil && page.body["domain_count"] as? Int == 11, "every page is the app's detail")
                    seen += links(page.body)
                    order += (page.body["domains"] as? [[String: Any]] ?? []).compactMap { $0["host"] as? String }
                    guard let next = page.body["next_after"] as? Int, pages < 20 else { break }
                    target = "/api/v1/apps/\(appID)?limit=\(limit)&after=\(next)"
                }
                return (seen, order, pages)
            }
            let stored = Set(try db.appLinks(appID: Int64(appID)).map { Link(domain: Int($0.domainID), platform: $0.platform.rawValue, service: $0.service.rawValue) })
            #expect(stored.count == 22)
            for limit in [1, 3, 4, 11, 500] {
                let read = follow(limit: limit)
                #expect(read.links.count == 22 && Set(read.links) == stored, "limit \(limit): every link exactly once")
                #expect(read.hosts == hosts, "limit \(limit): in host order")
                #expect(read.pages == (11 + limit - 1) / limit, "limit \(limit): the last full page says there is no next")
            }

            // The domain the cursor names leaves the app: the next page starts after its place.
            let first = call("GET", "/api/v1/apps/\(appID)?limit=3", "")
            let cursor = try #require(first.body["next_after"] as? Int)
            #expect((first.body["domains"] as? [[String: Any]])?.last?["host"] as? String == "p02.example")
            let kept = hosts.filter { $0 != "p02.example" }.flatMap { ["\"applinks:\($0)\""] }.joined(separator: ",")
            #expect(call("PATCH", "/api/v1/apps/\(appID)", #"{"apple_domains": [\#(kept)]}"#).status == 200)
            let second = call("GET", "/api/v1/apps/\(appID)?limit=3&after=\(cursor)", "")
            #expect((second.body["domains"] as? [[String: Any]])?.compactMap { $0["host"] as? String } == ["p03.example", "p04.example", "p05.example"],
                    "\(second.body)")
            // A domain deleted outright cannot be placed; a limit past the maximum is refused.
            #expect(call("DELETE", "/api/v1/domains/\(cursor)", "").status == 204)
            let gone = call("GET", "/api/v1/apps/\(appID)?after=\(cursor)", "")
            #expect(gone.status == 422 && ((gone.body["error"] as? [String: Any])?["field"] as? String) == "after", "\(gone.body)")
            #expect(call("GET", "/api/v1/apps/\(appID)?limit=501", "").status == 400)
            #expect(call("GET", "/api/v1/apps/\(appID)?after=0", "").status == 400)
        }
    }

    /// The counts the list, the API, /metrics and the app page show come from judgements kept on the
    /// links; after every kind of change (checks, expectations re-measured without a check, a check
    /// running, the app edited) they equal the counts judged from scratch against every link's latest
    /// check, and after a read every link's judgement is current.
    @Test func keptLinkCountsEqualAFromScratchCountAfterEveryChange() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let call = try apiCaller(db)
            let hosts = ["a.example", "b.example", "c.example", "d.example"]
            let shop = call("POST", "/api/v1/apps", #"""
                {"name": "Shop", "apple_app_ids": ["\#(Self.app)"], "android_package": "\#(Self.package)",
                 "fingerprints": [{"fingerprint": "\#(Self.signing)"}],
                 "apple_domains": ["applinks:a.example", "webcredentials:a.example", "applinks:b.example?mode=developer", "applinks:c.example"],
                 "android_hosts": ["a.example", "d.example"]}
                """#)
            #expect(shop.status == 201, "\(shop.body)")
            let other = call("POST", "/api/v1/apps", #"{"name": "Other", "apple_app_ids": ["ABCDE12345.com.example.other"], "apple_domains": ["applinks:c.example"]}"#)
            #expect(other.status == 201, "\(other.body)")
            var ids: [String: Int64] = [:]
            for host in hosts { ids[host] = try #require(try db.domainID(host: host, wildcard: false)) }

            func summaries(_ list: [AppSummary]) -> [String: [String: Int]] {
                Dictionary(uniqueKeysWithValues: list.map { s in
                    (s.name, Dictionary(uniqueKeysWithValues: s.links.flatMap { kind, states in
                        states.map { ("\(kind.platform.rawValue)/\(kind.service.rawValue)/\($0.key.rawValue)", $0.value) }
                    }))
                })
            }
            func expectEqualToFromScratch(_ step: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
                let kept = summaries(try AppSummary.load(from: db)), scratch = summaries(try AppSummary.loadFromScratch(from: db))
                #expect(kept == scratch, "\(step): kept \(kept), from scratch \(scratch)", sourceLocation: sourceLocation)
                let stale: Int64 = try db.value("""
                    SELECT count(*) FROM app_links l JOIN domains d ON d.id = l.domain_id
                    WHERE l.judged_state IS NULL OR l.judged_check_id IS DISTINCT FROM d.last_check_id
                       OR l.judged_digest IS DISTINCT FROM jsonb_hash_extended(coalesce(d.last_expectations, 'null'::jsonb), hashtext(coalesce(d.last_verdict, '')))
                    """)
                #expect(stale == 0, "\(step): every judgement current after a read", sourceLocation: sourceLocation)
                // The app page's summary line counts the same links.
                for (name, counts) in scratch {
                    let id = try #require(try db.app(name: name)).id
                    let matrix = try #require(try AppMatrix.load(appID: id, from: db, window: .page(1)))
                    #expect(matrix.cellCounts.values.reduce(0, +) == counts.values.reduce(0, +), "\(step): \(name)'s page", sourceLocation: sourceLocation)
                }
            }
            try expectEqualToFromScratch("registered, checks requested")
            #expect(summaries(try AppSummary.load(from: db))["Shop"]?["apple/applinks/checking"] == 3)

            // Checks: a passes; b's CDN copy fails (its developer-mode link ignores that); c lacks the
            // Shop's ID; d's assetlinks.json grants the package.
            let t0 = Date(timeIntervalSince1970: 1_800_000_000)
            func android(granted: [String]) -> AndroidResult {
                AndroidResult(verdict: granted.isEmpty ? .fail : .pass, serves: true, identities: [
                    AndroidIdentityResult(packageName: Self.package, expectedFingerprints: [Self.signing], named: !granted.isEmpty, grantedFingerprints: granted),
                ])
            }
            try recordCheck(db, domainID: ids["a.example"] ?? 0, at: t0, findings: [], missing: [:], android: android(granted: [Self.signing]),
                            androidFile: Self.assetLinks([Self.signing]))
            try expectEqualToFromScratch("one domain checked")
            try recordCheck(db, domainID: ids["b.example"] ?? 0, at: t0, findings: [FindingDefinition.cdnFailure.finding(at: nil, "Apple's CDN answered 404.")], missing: [:])
            try recordCheck(db, domainID: ids["c.example"] ?? 0, at: t0, findings: [], missing: [.applinks: [Self.app]])
            try recordCheck(db, domainID: ids["d.example"] ?? 0, at: t0, findings: [], missing: [:], android: android(granted: [Self.signing]),
                            androidFile: Self.assetLinks([Self.signing]))
            try expectEqualToFromScratch("every domain checked")
            let afterChecks = summaries(try AppSummary.load(from: db))
            #expect(afterChecks["Shop"]?["apple/applinks/failing"] == 1 && afterChecks["Shop"]?["apple/applinks/passing"] == 2, "\(afterChecks)")
            #expect(afterChecks["Other"]?["apple/applinks/passing"] == 1, "c lacks only the Shop's ID: \(afterChecks)")

            // A new changed check: d's key leaves the file, a's file breaks.
            let error = Finding(code: "http-status", severity: .error, location: SourceLocation(pointer: ""), message: "Served 404.")
            try recordCheck(db, domainID: ids["d.example"] ?? 0, at: t0.addingTimeInterval(600), findings: [], missing: [:], android: android(granted: []),
                            androidFile: Self.assetLinks([]))
            try recordCheck(db, domainID: ids["a.example"] ?? 0, at: t0.addingTimeInterval(600), findings: [error], missing: [:],
                            android: android(granted: [Self.signing]), androidFile: Self.assetLinks([Self.signing]))
            try expectEqualToFromScratch("newer changed checks")
            #expect(summaries(try AppSummary.load(from: db))["Shop"]?["android/applinks/failing"] == 1)

            // Expectations re-measured without a check (as an edit of the form does): c now has the ID.
            try db.execute("UPDATE domains SET last_expectations = $2::jsonb WHERE id = $1", ids["c.example"] ?? 0,
                           try StoredJSON.encode(ExpectationResults(missingAppIDs: [:])))
            try expectEqualToFromScratch("expectations re-measured")
            #expect(summaries(try AppSummary.load(from: db))["Shop"]?["apple/applinks/failing"] == 1, "a's broken file, not c")

            // The app edited: b is dropped, c's link becomes developer mode, a new domain joins unchecked.
            let edited = call("PATCH", "/api/v1/apps/Shop", #"""
                {"apple_domains": ["applinks:a.example", "webcredentials:a.example", "applinks:c.example?mode=developer", "applinks:e.example"]}
                """#)
            #expect(edited.status == 200, "\(edited.body)")
            try expectEqualToFromScratch("the app edited")
            // A check of the new domain is leased, then its request and lease end without a check.
            try db.execute("UPDATE domains SET check_requested_at = NULL, lease_until = NULL WHERE host = 'e.example'")
            try expectEqualToFromScratch("the new domain no longer checking")
            #expect(summaries(try AppSummary.load(from: db))["Shop"]?["apple/applinks/never"] == 1)
            // The other app deleted, and a domain deleted: their links go with them.
            #expect(call("DELETE", "/api/v1/apps/Other", "").status == 204)
            #expect(call("DELETE", "/api/v1/domains/d.example", "").status == 204)
            try expectEqualToFromScratch("an app and a domain deleted")
        }
    }
}
