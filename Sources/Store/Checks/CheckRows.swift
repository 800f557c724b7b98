import Vocabulary
import Foundation

/// A check row as stored, for writers that already have every piece (imports, benchmarks, tests).
/// The check pipeline has its own transactional writer; this one writes the row, the version and
/// the domain's latest-state columns (the verdict as given, as the state of the platform the check
/// stands for; the worst finding as the reason: no expectations are measured here).
public struct NewCheckRow: Sendable {
    public var domainID: Int64
    public var startedAt: Date
    public var finishedAt: Date
    public var verdict: Verdict
    /// The origin's file, nil when it served none.
    public var originBody: [UInt8]?
    public var cdnBody: [UInt8]?
    public var transport = CheckTransport()
    public var findings: [Finding] = []
    public var latencyMilliseconds: Int?
    public var changed: Bool
    // Only tests build one today (`@testable import Store`): Swift's memberwise init is enough until
    // an import or a benchmark outside Store needs a public one.
}

extension Database {
    @discardableResult
    public func insertCheck(_ new: NewCheckRow) throws -> Int64 {
        try withTransaction { c in
            func version(_ body: [UInt8]?) throws -> Int64? {
                guard let body else { return nil }
                let sha = SHA256.hex(body)
                return try c.value("""
                    INSERT INTO association_versions (platform, sha256, body, size, first_seen_at, last_seen_at)
                    VALUES ('apple', $1, $2, $3, $4, $4)
                    ON CONFLICT (platform, sha256) DO UPDATE
                      SET last_seen_at = GREATEST(association_versions.last_seen_at, EXCLUDED.last_seen_at)
                    RETURNING id
                    """, sha, body, body.count, new.finishedAt)
            }
            let origin = try version(new.originBody), cdn = try version(new.cdnBody)
            // Coded here, at the libpq edge, with the one stored coding the pipeline's rows use.
            let findings = try StoredJSON.encode(new.findings)
            let id: Int64 = try c.value("""
                INSERT INTO checks (domain_id, attempt_key, started_at, finished_at, verdict, origin_version_id, cdn_version_id,
                                    transport, findings, changed, latency_ms)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10, $11) RETURNING id
                """, new.domainID, "insert-" + String(UInt64.random(in: 0...UInt64.max)), new.startedAt, new.finishedAt, new.verdict,
                origin, cdn, new.transport, findings, new.changed, new.latencyMilliseconds)
            let newest = try c.execute("""
                UPDATE domains SET last_check_id = $2, last_checked_at = $3, last_verdict = $4, check_requested_at = NULL,
                  -- The verdict as given is the checked platform's state (CheckSummary.verdict: Apple's file
                  -- where Apple is watched, else Android's): no expectations are measured here.
                  last_apple_state = CASE WHEN platforms <> 'android' THEN $4 END,
                  last_android_state = CASE WHEN platforms = 'android' THEN $4 END,
                  last_changed_at = CASE WHEN $5 OR last_changed_at IS NULL THEN $3 ELSE last_changed_at END,
                  last_reason = (SELECT f->>'message' FROM jsonb_array_elements($6::jsonb) f
                                 ORDER BY CASE f->>'severity' WHEN 'error' THEN 0 WHEN 'warning' THEN 1 WHEN 'deprecation' THEN 2 ELSE 3 END
                                 LIMIT 1),
                  -- The findings are the checked platform's, as the verdict is.
                  last_reason_platform = CASE WHEN jsonb_array_length($6::jsonb) = 0 THEN NULL
                                              WHEN platforms = 'android' THEN 'android' ELSE 'apple' END
                WHERE id = $1 AND (last_checked_at IS NULL OR last_checked_at <= $3)
                """, new.domainID, id, new.finishedAt, new.verdict, new.changed, findings) == 1
            // Every check counts in /metrics, whether or not it is the domain's latest.
            try c.execute(DomainStats.countCheck + """
                FROM (SELECT $1::bigint AS domain_id, $2::text AS verdict, $3::integer AS latency_ms, $4::boolean AS newest) c
                WHERE s.domain_id = c.domain_id
                """, new.domainID, new.verdict, new.latencyMilliseconds, newest)
            return id
        }
    }
}
