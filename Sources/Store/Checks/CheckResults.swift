import Vocabulary
import Foundation

/// Everything one check produced, ready to be written in one transaction.
public struct CheckRecord: Sendable {
    public var domainID: Int64
    /// The lease's key; stored as the check's `attempt_key`.
    public var attemptKey: String
    public var startedAt: Date
    public var finishedAt: Date
    /// pass / warn / fail: the file's verdict (`checks.verdict`).
    public var verdict: Verdict
    /// The domain's overall state after this check (`domains.last_verdict`): the file's verdict made
    /// worse by unmet expectations; nil: the same as `verdict`.
    public var domainVerdict: Verdict?
    /// The one line the overview shows for the domain and its platform (`domains.last_reason`,
    /// `last_reason_platform`).
    public var reason: DomainReason?
    /// Each platform's own state, unmet expectations included (`domains.last_apple_state` /
    /// `last_android_state`, `DomainVerdict.apple` / `.android`); nil where the platform does not count.
    public var platformStates = PlatformStates()
    /// The expectations measured against a usable file (`domains.last_expectations`, what the domain
    /// page shows); nil when the file could not be read.
    public var domainExpectations: ExpectationResults?
    /// The file the origin served (hex SHA-256 and bytes), nil when none.
    public var version: StoredBody?
    /// The file Apple's CDN served, stored the same way (one row per distinct file); nil when the
    /// CDN was not asked or served none.
    public var cdnVersion: StoredBody?
    /// The Android file (assetlinks.json) the origin served; nil when Android was not checked or none was served.
    public var androidVersion: StoredBody?
    /// Android's side of the check (`checks.android`); nil when Android was not checked.
    public var android: AndroidResult?
    /// Whether anything changed (version, verdict, findings, expectations, certificate, alert
    /// state): a changed check keeps a full row in `checks`, an unchanged one a small repeat row.
    public var changed: Bool
    public var latencyMilliseconds: Int
    public var findings: [Finding]
    /// Per-location transport facts; stored only with a changed check.
    public var transport: CheckTransport
    public var expectations: ExpectationResults
    public var summaryJSON: String
    public var eventsJSON: String
    /// Unreachable checks in a row, for the scheduler's backoff.
    public var consecutiveFailures: Int
    public var nextCheckAt: Date
    /// The domain's alert streaks after this check; nil when they did not change.
    public var streaks: [StreakRow]?
    public var alertChanges: [AlertChange]
    /// The secondary requests this check made (now) and did not (nil: the stored time stays).
    public var asked = LastAsked()

    public init(domainID: Int64, attemptKey: String, startedAt: Date, finishedAt: Date, verdict: Verdict,
                version: StoredBody?, cdnVersion: StoredBody? = nil, changed: Bool, latencyMilliseconds: Int, findings: [Finding],
                transport: CheckTransport, expectations: ExpectationResults, summaryJSON: String, eventsJSON: String,
                consecutiveFailures: Int, nextCheckAt: Date, streaks: [StreakRow]?, alertChanges: [AlertChange]) {
        self.domainID = domainID
        self.attemptKey = attemptKey
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.verdict = verdict
        self.version = version
        self.cdnVersion = cdnVersion
        self.changed = changed
        self.latencyMilliseconds = latencyMilliseconds
        self.findings = findings
        self.transport = transport
        self.expectations = expectations
        self.summaryJSON = summaryJSON
        self.eventsJSON = eventsJSON
        self.consecutiveFailures = consecutiveFailures
        self.nextCheckAt = nextCheckAt
        self.streaks = streaks
        self.alertChanges = alertChanges
    }
}

/// A platform's association file: its bytes with their hex SHA-256, and — when the writer read it
/// (the pipeline does when the file is new to the domain) — its reading for the views.
public struct StoredBody: Sendable, Hashable {
    public var platform: Platform
    public var sha256: String
    public var bytes: [UInt8]
    /// The `VersionReading` coded once here, at the edge; nil leaves it to the first reader.
    public private(set) var readingJSON: String?

    public init(_ platform: Platform, sha256: String, bytes: [UInt8]) {
        self.platform = platform
        self.sha256 = sha256
        self.bytes = bytes
    }

    public init<Document>(_ platform: Platform, sha256: String, bytes: [UInt8], reading: VersionReading<Document>?) throws {
        self.init(platform, sha256: sha256, bytes: bytes)
        readingJSON = try reading.map { try StoredJSON.encode($0) }
    }

    public var key: VersionKey { VersionKey(platform, sha256: sha256) }
}

/// What became of a result.
public enum CheckRecordOutcome: Sendable, Equatable {
    /// Written. `checkID` is the new `checks` row (nil for an unchanged repeat); `alertIDs` follow
    /// `alertChanges` (nil for notices); `deliveries` counts the outbox rows written.
    case recorded(checkID: Int64?, alertIDs: [Int64?], deliveries: Int)
    /// The lease was no longer this check's (it expired and another worker took the domain, or
    /// this result was written already): nothing was written, so no check counts twice.
    case superseded
}

extension Database {
    /// Writes a check's result, the file it saw, the domain's next check, its alert streaks and
    /// alert changes with their outbox rows in ONE transaction: all of it happens or none, so a crash
    /// between steps can neither lose an alert nor send one twice.
    public func record(_ record: CheckRecord) throws -> CheckRecordOutcome {
        try withTransaction { connection in
            // Locks the row; a result whose lease was taken over (or already written) finds nothing.
            guard try connection.firstRow(
                "SELECT id FROM domains WHERE id = $1 AND lease_attempt_key = $2 FOR UPDATE",
                record.domainID, record.attemptKey) != nil else { return .superseded }

            let versionID = try record.version.map { try connection.storeVersion($0, seenAt: record.finishedAt) }
            let cdnVersionID = try record.cdnVersion.map { try connection.storeVersion($0, seenAt: record.finishedAt) }
            let androidVersionID = try record.androidVersion.map { try connection.storeVersion($0, seenAt: record.finishedAt) }
            var checkID: Int64?
            if record.changed {
                guard let id: Int64 = try connection.firstRow(
                    Self.insertCheck, record.domainID, record.attemptKey, record.startedAt, record.finishedAt,
                    record.verdict, versionID, record.transport, try StoredJSON.encode(record.findings), record.expectations,
                    record.latencyMilliseconds, record.summaryJSON, record.eventsJSON, cdnVersionID, androidVersionID, record.android)?.decode("id")
                else { return .superseded }
                checkID = id
            } else {
                try connection.execute("INSERT INTO check_repeats (domain_id, checked_at, latency_ms) VALUES ($1, $2, $3)",
                                       record.domainID, record.finishedAt, record.latencyMilliseconds)
            }
            try connection.execute(Self.finishDomain, record.domainID, record.nextCheckAt, record.finishedAt,
                                   record.domainVerdict ?? record.verdict, record.consecutiveFailures, checkID, record.reason?.text,
                                   record.verdict, record.latencyMilliseconds, record.domainExpectations,
                                   record.asked.appleCDN, record.asked.googleAPI, record.asked.comparisons,
                                   record.asked.certificate, record.asked.fullFetch,
                                   record.platformStates.apple, record.platformStates.android, record.reason?.platform)
            if let streaks = record.streaks {
                try connection.replaceStreaks(domainID: record.domainID, with: streaks, checkID: checkID)
            }
            var alertIDs: [Int64?] = []
            var deliveries = 0
            for change in record.alertChanges {
                let applied = try connection.apply(change, domainID: record.domainID, checkID: checkID)
                alertIDs.append(applied?.id)
                deliveries += try connection.enqueueDeliveries(for: change, alert: applied, domainID: record.domainID)
            }
            return .recorded(checkID: checkID, alertIDs: alertIDs, deliveries: deliveries)
        }
    }

    static var insertCheck: SQL {
        """
        INSERT INTO checks (domain_id, attempt_key, started_at, finished_at, verdict, origin_version_id,
                            transport, findings, expectations, changed, latency_ms, summary, events, cdn_version_id, android_version_id,
                            android)
        VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9::jsonb, true, $10, $11::jsonb, $12::jsonb, $13, $14, $15::jsonb)
        ON CONFLICT (domain_id, attempt_key) DO NOTHING
        RETURNING id
        """
    }

    static var finishDomain: SQL {
        """
        WITH finished AS (
          UPDATE domains SET lease_until = NULL, leased_by = NULL, lease_attempt_key = NULL,
            next_check_at = $2, check_round = check_round + 1, last_checked_at = $3, last_verdict = $4,
            consecutive_failures = $5, last_reason = $7, last_expectations = $10::jsonb,
            cdn_asked_at = COALESCE($11::timestamptz, cdn_asked_at), google_asked_at = COALESCE($12::timestamptz, google_asked_at),
            compared_at = COALESCE($13::timestamptz, compared_at),
            certificate_read_at = COALESCE($14::timestamptz, certificate_read_at),
            full_fetch_at = COALESCE($15::timestamptz, full_fetch_at),
            last_apple_state = $16, last_android_state = $17, last_reason_platform = $18,
            last_check_id = COALESCE($6, last_check_id),
            last_changed_at = CASE WHEN $6::bigint IS NULL THEN last_changed_at ELSE $3 END
          WHERE id = $1
          RETURNING id
        )
        """ + DomainStats.countCheck + """
        FROM (SELECT id AS domain_id, $8::text AS verdict, $9::integer AS latency_ms, true AS newest FROM finished) c
        WHERE s.domain_id = c.domain_id
        """
    }
}
