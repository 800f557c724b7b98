import Foundation
import Glibc
import Store
import Testing
import TestSupport

/// `aasa-monitor status` for both platforms, on domains declared by `apply` (with their Android apps)
/// and checked by a real `worker` against the TLS fleet and its fake Digital Asset Links API.
@Suite(.serialized) struct StatusCommandTests {
    static let config = """
        domains:
          - host: good.fleet.test
          - host: al-good.fleet.test
            platforms: android
            android_apps:
              - package: \(FleetAssetLinks.packageName)
                fingerprints: [\(FleetAssetLinks.appSigningKey.replacingOccurrences(of: ":", with: "").lowercased())]
          - host: al-redirect.fleet.test
            platforms: android
        """

    @Test func statusShowsEachPlatformAndExitsWithTheWorstDomain() async throws {
        try await TestTLSFleet.with { fleet in
            let database = try TestPostgres.createDatabase()
            defer { database.drop() }
            func run(_ arguments: [String], stdin: String = "") throws -> BuiltCommand.Outcome {
                try BuiltCommand.run(arguments + ["--database-url", database.url], stdin: Array(stdin.utf8))
            }
            let applied = try run(["apply", "-"], stdin: Self.config)
            #expect(applied.status == 0, "\(applied.stdout)\(applied.stderr)")
            let never = try run(["status", "--json"])
            #expect(never.status == 0, "nothing checked yet: \(never.stdout)")

            let worker = try WorkerProcess(databaseURL: database.url, fleet: fleet, name: "status", leaseSeconds: 30,
                                           extraArguments: ["--google-dal-base", fleet.googleDALBase])
            defer { worker.stop() }
            let db = Database(configuration: database.configuration, poolSize: 1)
            defer { db.close() }
            let deadline = ContinuousClock.now + .seconds(180)
            while try db.value("SELECT count(*)::int FROM domains WHERE last_verdict IS NOT NULL", as: Int.self) < 3,
                  ContinuousClock.now < deadline {
                usleep(200_000)
            }
            worker.stop()

            let json = try run(["status", "--json"])
            #expect(json.status == 2, "al-redirect fails for Android: \(json.stdout)\(json.stderr)\n\(worker.log.suffix(2000))")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            let rows = (object["domains"] as? [[String: Any]]) ?? []
            let byHost = Dictionary(uniqueKeysWithValues: rows.compactMap { row in (row["host"] as? String).map { ($0, row) } })
            // Watched for both: Apple's file passes; no assetlinks.json and no Android app expected, so Android does not count.
            let good = try #require(byHost["good.fleet.test"])
            #expect(good["state"] as? String == "passing" && good["platforms"] as? String == "both", "\(good)")
            #expect(good["apple"] as? String == "passing" && good["android"] is NSNull, "\(good)")
            // Android only, its expected app granted: Apple is not watched.
            let alGood = try #require(byHost["al-good.fleet.test"])
            #expect(alGood["state"] as? String == "passing" && alGood["platforms"] as? String == "android", "\(alGood)")
            #expect(alGood["apple"] is NSNull && alGood["android"] as? String == "passing", "\(alGood)")
            let redirect = try #require(byHost["al-redirect.fleet.test"])
            #expect(redirect["state"] as? String == "failing" && redirect["android"] as? String == "failing", "\(redirect)")
            #expect((redirect["reason"] as? String)?.hasPrefix("Android: ") == true, "\(redirect)")

            let table = try run(["status"])
            #expect(table.status == 2)
            let lines = table.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first?.contains("STATE          APPLE     ANDROID   LAST CHECK") == true, "\(table.stdout)")
            #expect(lines.contains { $0.hasPrefix("al-good.fleet.test      passing        -         passing   ") }, "\(table.stdout)")
            #expect(lines.contains { $0.hasPrefix("good.fleet.test         passing        passing   -         ") }, "\(table.stdout)")

            // Without the failing domain, every domain passes: exit 0.
            let pruned = try run(["apply", "--prune", "-"], stdin: Self.config.components(separatedBy: "  - host: al-redirect").first ?? "")
            #expect(pruned.status == 0, "\(pruned.stdout)\(pruned.stderr)")
            #expect(try run(["status"]).status == 0)
        }
    }
}
