import Foundation
import Monitor
import Registry
import Store
import Synchronization
import Testing
import TestSupport
import Vocabulary

/// What an edit leaves on the domain row between its save and the next check (real PostgreSQL): the
/// state re-measured from the stored files, none where the latest check measured no platform watched
/// now, and a logged failure with a check requested where it cannot be re-measured.
@Suite struct EditRemeasureTests {
    static let file = Array(#"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/*"}]}]}}"#.utf8)

    /// Stores a changed check as the pipeline writes one: Apple's file where `apple`, Android's result
    /// (a served file that passes) where `android`, each platform's state as `DomainVerdict` judges it.
    @discardableResult
    func recordCheck(_ db: Database, _ id: Int64, apple: Bool, android: Bool) throws -> Int64 {
        try db.execute("UPDATE domains SET check_requested_at = NULL, next_check_at = now() - interval '1 second' WHERE id = $1", id)
        let lease = try #require(try db.leaseDueDomains(limit: 10, lease: .seconds(60), worker: "test").first { $0.id == id })
        let host = lease.host
        var transport = CheckTransport(wellKnown: apple
            ? TransportFacts(location: .wellKnown, url: "https://\(host)/.well-known/apple-app-site-association", status: 200) : nil)
        let androidResult = android ? AndroidResult(verdict: .pass, serves: true) : nil
        if android { transport.assetLinks = TransportFacts(location: .wellKnown, url: "https://\(host)/.well-known/assetlinks.json", status: 200) }
        let now = Date()
        var record = CheckRecord(
            domainID: id, attemptKey: lease.attemptKey, startedAt: now, finishedAt: now, verdict: .pass,
            version: apple ? StoredBody(.apple, sha256: SHA256.hex(Self.file), bytes: Self.file) : nil, changed: true,
            latencyMilliseconds: 20, findings: [], transport: transport, expectations: ExpectationResults(), summaryJSON: "{}",
            eventsJSON: "[]", consecutiveFailures: 0, nextCheckAt: now.addingTimeInterval(3600), streaks: nil, alertChanges: [])
        record.android = androidResult
        let judged = apple ? DomainVerdict(fileVerdict: .pass, findings: [], expectations: ExpectationResults(), android: androidResult)
            : DomainVerdict(android: androidResult)
        record.domainVerdict = judged.verdict
        record.reason = judged.reason
        record.platformStates = judged.platformStates
        record.domainExpectations = apple ? ExpectationResults() : nil
        guard case .recorded(let checkID?, _, _) = try db.record(record) else { throw NotRecorded() }
        return checkID
    }
    struct NotRecorded: Error {}

    struct Shown: Equatable {
        var verdict: Verdict?
        var apple: Verdict?
        var android: Verdict?
        var state: DomainState
    }

    /// The row's verdict and platform states, and the state the overview, `status` and the API show
    /// once no check is pending (the edit's requested check is taken off first).
    func shown(_ db: Database, _ id: Int64) throws -> Shown {
        try db.execute("UPDATE domains SET check_requested_at = NULL WHERE id = $1", id)
        let domain = try #require(try db.domain(id: id))
        let states = try db.platformVerdicts(domainID: id)
        let status = try #require(try db.domainStatuses().first { $0.host == domain.host })
        return Shown(verdict: domain.lastVerdict, apple: states.apple, android: states.android, state: status.state)
    }

    /// Android only switched to Apple only (and Apple only to Android only) before a check: the latest
    /// check measured no platform watched now, so the domain stands as a new one does — no verdict, no
    /// platform state, "never checked" — until the check the switch requests; not "passing" on a file
    /// nobody read. A switch whose latest check did read the newly watched platform's file is
    /// re-measured from it.
    @Test func aSwitchToAPlatformTheLatestCheckDidNotMeasureLeavesTheDomainUnjudged() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let registry = DomainRegistry(store: db)
            let droid = try registry.register(Registration(host: "droid.example", intervalMinutes: 60, platforms: "android"))
            try recordCheck(db, droid, apple: false, android: true)
            #expect(try shown(db, droid) == Shown(verdict: .pass, apple: nil, android: .pass, state: .passing))
            try registry.edit(domainID: droid, Registration(host: "", intervalMinutes: 60, platforms: "apple"))
            #expect(try db.domain(id: droid)?.checkRequestedAt != nil, "the switch requests the check that judges Apple")
            #expect(try shown(db, droid) == Shown(verdict: nil, apple: nil, android: nil, state: .never))
            #expect(try db.domain(id: droid)?.lastReason == nil)

            let apple = try registry.register(Registration(host: "apple.example", intervalMinutes: 60, platforms: "apple"))
            try recordCheck(db, apple, apple: true, android: false)
            #expect(try shown(db, apple) == Shown(verdict: .pass, apple: .pass, android: nil, state: .passing))
            try registry.edit(domainID: apple, Registration(host: "", intervalMinutes: 60, platforms: "android"))
            #expect(try shown(db, apple) == Shown(verdict: nil, apple: nil, android: nil, state: .never))

            // Watched for both when last checked: each switch re-measures what that check read.
            let both = try registry.register(Registration(host: "both.example", intervalMinutes: 60))
            try recordCheck(db, both, apple: true, android: true)
            try registry.edit(domainID: both, Registration(host: "", intervalMinutes: 60, platforms: "android"))
            #expect(try shown(db, both) == Shown(verdict: .pass, apple: nil, android: .pass, state: .passing))
            try registry.edit(domainID: both, Registration(host: "", intervalMinutes: 60, platforms: "apple"))
            #expect(try shown(db, both) == Shown(verdict: .pass, apple: .pass, android: nil, state: .passing))
            // An app ID the stored file lacks fails Apple's side at once, without a check.
            try registry.edit(domainID: both, Registration(host: "", appIDs: [.init(service: "applinks", appID: "ABCDE12345.com.example.other")],
                                                           intervalMinutes: 60))
            #expect(try shown(db, both) == Shown(verdict: .fail, apple: .fail, android: nil, state: .failing))
        }
    }

    /// The edit is saved even when its re-measure fails (here a stored check the code cannot read):
    /// the failure is logged, not swallowed, and a check is requested to set the state right.
    @Test func aFailedRemeasureIsLoggedAndRequestsACheck() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let lines = Mutex<[String]>([])
            let registry = DomainRegistry(store: db, log: { line in lines.withLock { $0.append(line) } })
            let id = try registry.register(Registration(host: "broken.example", intervalMinutes: 60))
            let checkID = try recordCheck(db, id, apple: true, android: true)
            try db.execute("UPDATE checks SET findings = '{\"not\": \"findings\"}' WHERE id = $1", checkID)
            try registry.edit(domainID: id, Registration(host: "", appIDs: [.init(service: "applinks", appID: "ABCDE12345.com.example.app")],
                                                         intervalMinutes: 1440))
            let domain = try #require(try db.domain(id: id))
            #expect(domain.intervalSeconds == 86400, "the edit is saved")
            #expect(try db.appIDExpectations(domainID: id).map(\.appID) == ["ABCDE12345.com.example.app"])
            #expect(domain.checkRequestedAt != nil, "a check is requested to set the state")
            let logged = lines.withLock { $0 }
            #expect(logged.count == 1 && logged.allSatisfy { $0.contains("domain \(id) was saved, but its state could not be re-measured") },
                    "\(logged)")
            #expect(logged.first?.contains("findings") == true, "the error names what could not be read: \(logged)")
        }
    }
}
