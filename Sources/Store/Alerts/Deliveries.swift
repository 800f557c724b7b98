import Vocabulary
import Foundation

/// The outbox: one row per notification event and channel, delivered at least once by any worker.
public enum DeliveryState: String, Sendable, Codable, CaseIterable, SQLDecodable, SQLEncodable {
    case pending, sent, failed
}

/// A delivery claimed by a worker, with what it needs to send it (the event and the channel).
public struct ClaimedDelivery: Sendable {
    public var id: Int64
    /// Stable across retries: the webhook-id and the Message-ID.
    public var idempotencyID: String
    public var event: NotificationEvent
    /// Including this one.
    public var attempts: Int
    public var createdAt: Date
    public var giveUpAt: Date
    public var channel: ChannelRecord
}

/// One row of the delivery log shown on the alerts page.
public struct DeliveryRecord: Sendable, Equatable {
    public var id: Int64
    public var channelID: Int64
    public var alertID: Int64?
    public var idempotencyID: String
    public var event: NotificationEvent
    public var state: DeliveryState
    public var attempts: Int
    public var nextAttemptAt: Date
    public var lastError: String?
    public var createdAt: Date
    public var sentAt: Date?
    public var giveUpAt: Date
}

/// One attempt: when, what the other side answered (HTTP status or SMTP reply), or what went wrong.
public struct DeliveryAttemptRecord: Sendable, Equatable {
    public var id: Int64
    public var deliveryID: Int64
    public var attemptedAt: Date
    public var succeeded: Bool
    public var responseCode: Int?
    public var response: String?
    public var error: String?
    public var durationMilliseconds: Int?
}

/// What became of an attempt, as the outbox records it.
public enum AttemptOutcome: Sendable, Equatable {
    case delivered
    /// Try again after `delay` seconds, unless the delivery's give-up time has passed.
    case retry(delaySeconds: Double)
    /// Stop: the delivery is failed and (for 410 Gone) the channel disabled with this reason.
    case giveUp(disableChannelBecause: String?)
}

/// The LISTEN/NOTIFY channel that wakes delivery workers when rows are added (the check pipeline
/// notifies the same channel when it writes alert deliveries).
public let outboxNotificationChannel = "deliveries"

extension NotificationEvent.Kind {
    /// The `deliveries.event` column's vocabulary.
    var outboxEvent: String {
        switch self {
        case .alertOpened: "opened"
        case .alertEscalated: "escalated"
        case .alertResolved: "resolved"
        case .versionPublished: "published"
        case .test: "test"
        }
    }
}

extension AlertStore {
    /// Writes one outbox row per enabled channel that wants this event (its domain filter and
    /// minimum severity), and wakes the delivery workers at commit. Call it inside the transaction
    /// that opens or resolves the alert, so the alert and its notifications exist together or not
    /// at all. `horizon` is how long failed attempts are retried before the row is marked failed.
    /// Returns the number of rows written.
    @discardableResult
    public func enqueueNotification(_ event: NotificationEvent, horizon: Duration = .seconds(24 * 3600)) throws -> Int {
        let count: Int = try value(Self.insertFanOut, event.alertID, event.kind.outboxEvent, try event.storedJSON(),
                                   Self.seconds(horizon), event.severity.rawValue, event.domainID)
        if count > 0 { try notify(channel: outboxNotificationChannel) }
        return count
    }

    /// A test notification for one channel, whatever its filters say. Returns the delivery's id.
    /// `leasedTo`: the one who sends it now (the settings page, `channel test`) holds its lease from
    /// the start, so a running notifier cannot take it first and answer with its own, possibly older,
    /// settings while the person who pressed "Send test" reads "Queued"; `claimDueDeliveries(onlyID:)`
    /// by that worker takes it. Should the sender die, the lease expires and the notifier sends it.
    public func enqueueTestNotification(channelID: Int64, event: NotificationEvent, horizon: Duration = .seconds(3600),
                                        leasedTo worker: String? = nil, lease: Duration = .seconds(120)) throws -> Int64 {
        let id: Int64 = try value("""
            INSERT INTO deliveries (alert_id, event, channel_id, idempotency_id, payload, give_up_at, lease_until, leased_by)
            VALUES (NULL, 'test', $1, 'msg_' || replace(gen_random_uuid()::text, '-', ''), $2::jsonb,
                    now() + make_interval(secs => $3),
                    CASE WHEN $4::text IS NOT NULL THEN now() + make_interval(secs => $5) END, $4)
            RETURNING id
            """, channelID, try event.storedJSON(), Self.seconds(horizon), worker, Self.seconds(lease))
        if worker == nil { try notify(channel: outboxNotificationChannel) }
        return id
    }

    /// Leases up to `limit` pending deliveries that are due to `worker` for `lease` and counts the
    /// attempt. Rows other workers hold are skipped (SKIP LOCKED), and a crashed worker's lease
    /// simply expires, so every row is sent at least once.
    /// `onlyID` restricts the claim to one delivery (`channel test` sends just its own), which may be
    /// one `worker` already holds (`enqueueTestNotification(leasedTo:)`).
    public func claimDueDeliveries(limit: Int, lease: Duration, worker: String, onlyID: Int64? = nil) throws -> [ClaimedDelivery] {
        try rows(Self.claimDue, limit, Self.seconds(lease), worker, onlyID).map(ClaimedDelivery.init(row:))
    }

    /// Logs an attempt and moves the delivery on, in one statement: sent; pending again at
    /// `now() + delay` (never later than the give-up time, so the last try happens at the horizon);
    /// or failed once the give-up time has passed. A `giveUp` with a reason disables the channel.
    /// Returns the delivery's new state.
    @discardableResult
    public func recordDeliveryAttempt(deliveryID: Int64, outcome: AttemptOutcome, responseCode: Int?,
                                      response: String?, error: String?, duration: Duration) throws -> DeliveryState {
        let succeeded: Bool
        var delay = 0.0
        var mode: String
        var disableReason: String?
        switch outcome {
        case .delivered: succeeded = true; mode = "sent"
        case .retry(let seconds): succeeded = false; mode = "retry"; delay = max(0, seconds)
        case .giveUp(let reason): succeeded = false; mode = "failed"; disableReason = reason
        }
        let milliseconds = Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
        let state: DeliveryState = try value(Self.recordAttempt, deliveryID, succeeded, responseCode, response.map { String($0.prefix(1000)) },
                                      error.map { String($0.prefix(1000)) }, milliseconds, mode, delay, disableReason)
        return state
    }

    /// Seconds until the earliest pending delivery is due (0 when one is due now), or nil when
    /// nothing is pending: how long an idle worker may sleep without missing a retry.
    public func secondsUntilNextDelivery() throws -> Double? {
        // No greatest(0, …) in SQL: it skips NULLs, and NULL (nothing pending) must stay NULL.
        let seconds: Double? = try value("""
            SELECT extract(epoch FROM min(greatest(next_attempt_at, coalesce(lease_until, next_attempt_at))) - now())::float8
            FROM deliveries WHERE state = 'pending'
            """)
        return seconds.map { max(0, $0) }
    }

    public func delivery(id: Int64) throws -> DeliveryRecord? {
        try firstRow(Self.selectDeliveries + " WHERE id = $1", id).map(DeliveryRecord.init(row:))
    }

    /// The newest deliveries, optionally of one channel or one alert.
    public func deliveries(channelID: Int64? = nil, alertID: Int64? = nil, limit: Int = 100) throws -> [DeliveryRecord] {
        try rows(Self.selectDeliveries + """
             WHERE ($1::bigint IS NULL OR channel_id = $1) AND ($2::bigint IS NULL OR alert_id = $2)
            ORDER BY created_at DESC, id DESC LIMIT $3
            """, channelID, alertID, limit).map(DeliveryRecord.init(row:))
    }

    /// Every attempt of a delivery, oldest first.
    public func deliveryAttempts(deliveryID: Int64) throws -> [DeliveryAttemptRecord] {
        try rows("""
            SELECT id, delivery_id, attempted_at, succeeded, response_code, response, error, duration_ms
            FROM delivery_attempts WHERE delivery_id = $1 ORDER BY attempted_at, id
            """, deliveryID).map(DeliveryAttemptRecord.init(row:))
    }

    /// Counts per state (for /metrics and the alerts page).
    public func deliveryCounts() throws -> [DeliveryState: Int] {
        var counts: [DeliveryState: Int] = [:]
        for row in try rows("SELECT state, count(*)::int AS n FROM deliveries GROUP BY state") {
            if let state = DeliveryState(rawValue: try row.decode("state")) { counts[state] = try row.decode("n") }
        }
        return counts
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    static var insertFanOut: SQL {
        """
        WITH inserted AS (
            INSERT INTO deliveries (alert_id, event, channel_id, idempotency_id, payload, give_up_at)
            SELECT $1, $2, c.id, 'msg_' || replace(gen_random_uuid()::text, '-', ''), $3::jsonb,
                   now() + make_interval(secs => $4)
            FROM channels c
            WHERE c.enabled
              AND array_position(ARRAY['critical', 'warning', 'info'], $5::text)
                  <= array_position(ARRAY['critical', 'warning', 'info'], c.min_severity)
              -- A channel without a domain or app filter takes every domain; one with filters takes its
              -- domains and the domains its apps claim.
              AND ((NOT EXISTS (SELECT 1 FROM channel_domains cd WHERE cd.channel_id = c.id)
                    AND NOT EXISTS (SELECT 1 FROM channel_apps ca WHERE ca.channel_id = c.id))
                   OR EXISTS (SELECT 1 FROM channel_domains cd WHERE cd.channel_id = c.id AND cd.domain_id = $6::bigint)
                   OR EXISTS (SELECT 1 FROM channel_apps ca JOIN app_links l ON l.app_id = ca.app_id
                              WHERE ca.channel_id = c.id AND l.domain_id = $6::bigint))
            RETURNING 1
        )
        SELECT count(*)::int FROM inserted
        """
    }

    static var claimDue: SQL {
        """
        WITH due AS (
            SELECT id FROM deliveries
            WHERE state = 'pending' AND next_attempt_at <= now()
              AND (lease_until IS NULL OR lease_until < now() OR (id = $4 AND leased_by = $3))
              AND ($4::bigint IS NULL OR id = $4)
            ORDER BY next_attempt_at, id
            LIMIT $1
            FOR UPDATE SKIP LOCKED
        )
        UPDATE deliveries d
        SET lease_until = now() + make_interval(secs => $2), leased_by = $3, attempts = d.attempts + 1
        FROM due, channels c
        WHERE d.id = due.id AND c.id = d.channel_id
        RETURNING d.id, d.idempotency_id, d.payload::text AS payload, d.attempts, d.created_at, d.give_up_at,
                  c.id AS channel_id, c.kind, c.name, c.target, c.secret, c.recipient, c.body_template, c.enabled, c.min_severity,
                  c.disabled_reason, c.created_at AS channel_created_at, c.updated_at AS channel_updated_at
        """
    }

    static var recordAttempt: SQL {
        """
        WITH attempt AS (
            INSERT INTO delivery_attempts (delivery_id, succeeded, response_code, response, error, duration_ms)
            VALUES ($1, $2, $3, $4, $5, $6)
        ), updated AS (
            UPDATE deliveries SET
                state = CASE
                    WHEN $7 = 'sent' THEN 'sent'
                    WHEN $7 = 'failed' OR now() >= give_up_at THEN 'failed'
                    ELSE 'pending' END,
                sent_at = CASE WHEN $7 = 'sent' THEN now() ELSE sent_at END,
                next_attempt_at = CASE WHEN $7 = 'retry'
                    THEN least(now() + make_interval(secs => $8), give_up_at) ELSE next_attempt_at END,
                last_error = CASE WHEN $7 = 'sent' THEN NULL ELSE coalesce($5, last_error) END,
                lease_until = NULL, leased_by = NULL
            WHERE id = $1
            RETURNING state, channel_id
        ), disabled AS (
            UPDATE channels SET enabled = false, disabled_reason = $9, updated_at = now()
            WHERE $9::text IS NOT NULL AND id IN (SELECT channel_id FROM updated)
        )
        SELECT state FROM updated
        """
    }

    static var selectDeliveries: SQL {
        """
        SELECT id, channel_id, alert_id, idempotency_id, payload::text AS payload, state, attempts,
               next_attempt_at, last_error, created_at, sent_at, give_up_at
        FROM deliveries
        """
    }
}

extension ClaimedDelivery {
    init(row: Row) throws {
        let kind: ChannelKind = try row.decode("kind"), severity: AlertSeverity = try row.decode("min_severity")
        let channel = ChannelRecord(
            id: try row.decode("channel_id"), kind: kind, name: try row.decode("name"), target: try row.decode("target"),
            secret: try row.decode("secret"), recipient: try row.decode("recipient"), bodyTemplate: try row.decode("body_template"),
            enabled: try row.decode("enabled"), minSeverity: severity,
            disabledReason: try row.decode("disabled_reason"), domainIDs: [],
            createdAt: try row.decode("channel_created_at"), updatedAt: try row.decode("channel_updated_at"))
        self.init(id: try row.decode("id"), idempotencyID: try row.decode("idempotency_id"),
                  event: try NotificationEvent.fromStoredJSON(try row.decode("payload")),
                  attempts: try row.decode("attempts"), createdAt: try row.decode("created_at"),
                  giveUpAt: try row.decode("give_up_at"), channel: channel)
    }
}

extension DeliveryRecord {
    init(row: Row) throws {
        let state: DeliveryState = try row.decode("state")
        self.init(id: try row.decode("id"), channelID: try row.decode("channel_id"), alertID: try row.decode("alert_id"),
                  idempotencyID: try row.decode("idempotency_id"),
                  event: try NotificationEvent.fromStoredJSON(try row.decode("payload")), state: state,
                  attempts: try row.decode("attempts"), nextAttemptAt: try row.decode("next_attempt_at"),
                  lastError: try row.decode("last_error"), createdAt: try row.decode("created_at"),
                  sentAt: try row.decode("sent_at"), giveUpAt: try row.decode("give_up_at"))
    }
}

extension DeliveryAttemptRecord {
    init(row: Row) throws {
        self.init(id: try row.decode("id"), deliveryID: try row.decode("delivery_id"),
                  attemptedAt: try row.decode("attempted_at"), succeeded: try row.decode("succeeded"),
                  responseCode: try row.decode("response_code"), response: try row.decode("response"),
                  error: try row.decode("error"), durationMilliseconds: try row.decode("duration_ms"))
    }
}
