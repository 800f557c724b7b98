import AssetLinks
import Outbound
import Vocabulary
import Fetch
import Foundation
import Monitor
import Store
import TestSupport

/// A fetcher aimed at the test fleet: names reach nginx through connect-to rules, the test CA is
/// trusted, private addresses allowed (loopback). Generous timeouts: no test here wants one, and a
/// slow, loaded machine must not turn a good answer into a failed check.
/// `askGoogle`: ask the fleet's fake Digital Asset Links API, as production asks Google's.
func fleetFetcher(_ fleet: TestTLSFleet, checkCDN: Bool = false, askGoogle: Bool = false) throws -> Fetcher {
    var configuration = FetchConfiguration(
        policy: OutboundPolicy(allowPrivateAddresses: true), cdnBase: fleet.cdnBase, checkCDN: checkCDN,
        rootLocation: .whenWellKnownFails, compareUserAgents: false, extraCAFile: fleet.caFile,
        connectTo: try fleet.connectTo.map { try ConnectToRule(parsing: $0) },
        connectTimeout: .seconds(30), totalTimeout: .seconds(60))
    if askGoogle { configuration.googleDAL = GoogleDALSettings(base: fleet.googleDALBase) }
    return try Fetcher(configuration)
}

/// The file every unknown name under fleet.test gets from nginx's default server; tests rewrite it
/// to make a domain's file change between checks.
func writeDefaultFile(_ fleet: TestTLSFleet, _ text: String) throws {
    try fleet.deploy(text, at: "/.well-known/apple-app-site-association")
}

/// An association file for `ABCDE12345.shop` (and optionally more apps) opening everything but /help.
func shopFile(apps: [String] = ["ABCDE12345.shop"], excludeBuy: Bool = false, webcredentials: [String] = []) -> String {
    let appIDs = apps.map { "\"\($0)\"" }.joined(separator: ",")
    let buy = excludeBuy ? #"{"/": "/buy/*", "exclude": true},"# : ""
    let credentials = webcredentials.isEmpty ? "" : #", "webcredentials": {"apps": [\#(webcredentials.map { "\"\($0)\"" }.joined(separator: ","))]}"#
    return #"{"applinks": {"details": [{"appIDs": [\#(appIDs)], "components": [{"/": "/help/*", "exclude": true}, \#(buy) {"/": "/*"}]}]}\#(credentials)}"#
}

/// Claims everything due and runs it through the pipeline, like one scheduler round.
func checkDueDomains(_ pipeline: CheckPipeline, worker: String = "test") async throws -> [(LeasedDomain, CheckPipeline.Result)] {
    let database = pipeline.database
    let leased = try database.leaseDueDomains(limit: 100, lease: .seconds(60), worker: worker)
    let ids = leased.map(\.id)
    let expectations = Dictionary(grouping: try database.expectations(domainIDs: ids), by: \.domainID)
    let android = Dictionary(grouping: try database.androidExpectations(domainIDs: ids), by: \.domainID)
    let histories = try database.domainHistories(domainIDs: ids)
    var results: [(LeasedDomain, CheckPipeline.Result)] = []
    for domain in leased {
        let result = try await pipeline.run(domain,
                                            expectations: Expectations(rows: expectations[domain.id] ?? [], android: android[domain.id] ?? []),
                                            android: (android[domain.id] ?? []).map(\.app),
                                            history: histories[domain.id])
        results.append((domain, result))
    }
    return results
}

/// Makes every domain due again (what time would do between intervals).
func makeAllDue(_ database: Database) throws {
    try database.execute("UPDATE domains SET next_check_at = now() - interval '1 second'")
}

func count(_ database: Database, _ table: SQL) throws -> Int {
    try database.value(table)
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A check pipeline over the TLS fleet and a fresh database; `file` (when given) is every fleet
/// host's default AASA file. The fetcher is shut down when `body` returns or throws.
/// `cadence`: production's by default; a test that changes what the CDN or Google says between
/// checks and wants the very next check to ask passes `.everyCheck` (SecondaryRequestTests covers the cadence).
func withFleetPipeline(serving file: String?, checkCDN: Bool = false, askGoogle: Bool = false,
                       cadence: SecondaryCadence = SecondaryCadence(),
                       _ body: (TestTLSFleet, Database, CheckPipeline) async throws -> Void) async throws {
    try await TestTLSFleet.with { fleet in
        if let file { try writeDefaultFile(fleet, file) }
        let fetcher = try fleetFetcher(fleet, checkCDN: checkCDN, askGoogle: askGoogle)
        defer { fetcher.shutdown() }
        try await TestPostgres.withDatabase { database in
            try await body(fleet, database, CheckPipeline(database: database, fetcher: fetcher, cadence: cadence))
        }
    }
}
