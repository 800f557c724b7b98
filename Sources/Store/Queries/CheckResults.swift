import Foundation

/// Everything one check produced, ready to be written in one transaction.
public struct CheckRecord: Sendable {
    public var checkID: String
    public var domainID: Int64
    public var startedAt: Date
    public var finishedAt: Date
    /// pass / warn / fail
    public var verdict: String
    /// The file the origin served (hex SHA-256 and bytes), nil when none.
    public var version: (sha256: String, body: [UInt8])?
    /// Whether anything changed (version, verdict, findings, expectations, certificate, alert
    /// state): changed checks keep a full row, unchanged repeats a small one.
    public var changed: Bool
    public var latencyMilliseconds: Int
    public var findingsJSON: String
    public var transportJSON: String
    public var summaryJSON: String
    public var eventsJSON: String
    /// The monitor's state after this check.
    public var monitorStateJSON: String
    public var nextCheckAt: Date
    public var alertChanges: [AlertChange]

    public init(checkID: String, domainID: Int64, startedAt: Date, finishedAt: Date, verdict: String,
                version: (sha256: String, body: [UInt8])?, changed: Bool, latencyMilliseconds: Int,
                findingsJSON: String, transportJSON: String, summaryJSON: String, eventsJSON: String,
                monitorStateJSON: String, nextCheckAt: Date, alertChanges: [AlertChange]) {
        self.checkID = checkID
        self.domainID = domainID
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.verdict = verdict
        self.version = version
        self.changed = changed
        self.latencyMilliseconds = latencyMilliseconds
        self.findingsJSON = findingsJSON
        self.transportJSON = transportJSON
        self.summaryJSON = summaryJSON
        self.eventsJSON = eventsJSON
        self.monitorStateJSON = monitorStateJSON
        self.nextCheckAt = nextCheckAt
        self.alertChanges = alertChanges
    }
}

/// What became of a result.
public enum CheckRecordOutcome: Sendable, Equatable {
    /// Written, with the ids of the alerts it opened, escalated or resolved (in `alertChanges` order; nil for notices).
    case recorded(alertIDs: [Int64?])
    /// The lease was no longer this check's (it expired and another worker took the domain, or
    /// this result was already written): nothing was written, so no check counts twice.
    case superseded
}

extension Database {
    /// Writes a check's result, the file it saw, the domain's next check and state, and its alert
    /// changes in ONE transaction: either all of it happened or none, so a crash between steps
    /// can neither lose an alert nor send one twice.
    public func record(_ record: CheckRecord) throws -> CheckRecordOutcome {
        try withTransaction { connection in
            // Locks the row; a result whose lease was taken over (or already written) finds nothing.
            guard try connection.firstRow(
                "SELECT id FROM domains WHERE id = $1 AND lease_check_id = $2::uuid FOR UPDATE",
                record.domainID, record.checkID) != nil else { return .superseded }

            var versionID: Int64?
            var versionSHA: String?
            if let version = record.version {
                versionID = try connection.storeVersion(sha256: version.sha256, body: version.body, seenAt: record.finishedAt)
                versionSHA = version.sha256
            }
            if record.changed {
                try connection.execute(Self.insertCheck, record.checkID, record.domainID, record.startedAt,
                                       record.finishedAt, record.verdict, versionID, record.findingsJSON,
                                       record.transportJSON, record.latencyMilliseconds, record.summaryJSON,
                                       record.eventsJSON)
            } else {
                try connection.execute("INSERT INTO check_repeats (domain_id, checked_at, latency_ms) VALUES ($1, $2, $3)",
                                       record.domainID, record.finishedAt, record.latencyMilliseconds)
            }
            try connection.execute(Self.finishDomain, record.domainID, record.nextCheckAt, record.monitorStateJSON,
                                   record.finishedAt, record.verdict, versionSHA, record.changed)
            var alertIDs: [Int64?] = []
            for change in record.alertChanges {
                alertIDs.append(try connection.apply(change, domainID: record.domainID, checkID: record.checkID))
            }
            if !record.alertChanges.isEmpty {
                // Delivered at commit: the notifier wakes for the new outbox rows.
                try connection.notify(channel: "alert_events", payload: String(record.domainID))
            }
            return .recorded(alertIDs: alertIDs)
        }
    }

    static var insertCheck: SQL {
        """
        INSERT INTO checks (id, domain_id, started_at, finished_at, verdict, version_id, findings, transport,
                            latency_ms, summary, events)
        VALUES ($1::uuid, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9, $10::jsonb, $11::jsonb)
        ON CONFLICT (id) DO NOTHING
        """
    }

    static var finishDomain: SQL {
        """
        UPDATE domains SET lease_until = NULL, leased_by = NULL, lease_check_id = NULL,
          next_check_at = $2, monitor_state = $3::jsonb, check_round = check_round + 1,
          last_check_at = $4, last_verdict = $5, last_version_sha256 = $6,
          last_changed_at = CASE WHEN $7 THEN $4 ELSE last_changed_at END
        WHERE id = $1
        """
    }
}
