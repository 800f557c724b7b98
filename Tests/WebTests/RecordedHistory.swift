import Vocabulary
import Foundation
import Store

/// Writes a domain's history through the product's own write path: each check takes the domain's
/// lease like a worker and is stored by `Database.record`, so a changed check becomes a `checks`
/// row and an unchanged one a `check_repeats` row, exactly as the pipeline stores them.
struct RecordedHistory {
    let db: Database
    let domainID: Int64

    static let firstFile = Array(#"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/a/*"}]}]}}"#.utf8)
    static let secondFile = Array(#"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/b/*"}]}]}}"#.utf8)

    /// Registers `host` (due at once, like every new domain).
    init(db: Database, host: String) throws {
        guard case .created(let id) = try db.createDomain(DomainDraft(host: host, displayName: host, wildcard: false,
            intervalSeconds: 3600, badgeEnabled: false, appIDs: [], watchedURLs: [])) else {
            throw HistoryError.notCreated(host)
        }
        self.db = db
        self.domainID = id
    }

    enum HistoryError: Error { case notCreated(String), notLeased, superseded }

    /// A check that finished at `at` after `latency` ms. `changed` ones keep the file and verdict
    /// given; unchanged ones repeat the previous check.
    func check(at: Date, latency: Int, changed: Bool, verdict: Verdict = .pass, file: [UInt8] = RecordedHistory.firstFile) throws {
        // Due again at once, so the next call can lease it like a worker would.
        try db.execute("UPDATE domains SET next_check_at = now() - interval '1 second' WHERE id = $1", domainID)
        guard let lease = try db.leaseDueDomains(limit: 1, lease: .seconds(60), worker: "history-test").first,
              lease.id == domainID else { throw HistoryError.notLeased }
        let started = at.addingTimeInterval(-Double(latency) / 1000)
        var record = CheckRecord(
            domainID: domainID, attemptKey: lease.attemptKey, startedAt: started, finishedAt: at, verdict: verdict,
            version: changed ? StoredBody(.apple, sha256: SHA256.hex(file), bytes: file) : nil, changed: changed,
            latencyMilliseconds: latency, findings: [], transport: CheckTransport(), expectations: ExpectationResults(),
            summaryJSON: "{}", eventsJSON: "[]", consecutiveFailures: 0, nextCheckAt: at.addingTimeInterval(3600),
            streaks: nil, alertChanges: [])
        // Apple's file and no expectations: the domain's and Apple's state are the file's verdict.
        record.platformStates = PlatformStates(apple: verdict)
        guard case .recorded = try db.record(record) else { throw HistoryError.superseded }
    }
}
