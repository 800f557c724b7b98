import Vocabulary
import Foundation

/// A stored check, as the domain page and the API show it. Its per-location transport facts are read
/// apart (`transport(checkID:)`): only the latest check's are shown, and decoding them for every row of
/// the page's 50-check timeline was a tenth of the domain page's CPU.
public struct CheckRow: Sendable, RowDecodable {
    public var id: Int64
    public var startedAt: Date
    public var finishedAt: Date?
    public var verdict: Verdict?
    public var originVersionSHA256: String?
    public var cdnVersionSHA256: String?
    /// The Android file (assetlinks.json) the origin served; nil when none or Android was not checked.
    public var androidVersionSHA256: String?
    public var changed: Bool
    public var latencyMilliseconds: Int?
    /// Errors first is the reader's choice; stored in the order the check produced them.
    public var findings: [Finding]
    public var expectations: ExpectationResults
    /// Android's side of the check; nil when Android was not checked.
    public var android: AndroidResult?

    enum CodingKeys: String, CodingKey {
        case id, startedAt, finishedAt, verdict, changed, findings, expectations, android
        case originVersionSHA256 = "origin_sha", cdnVersionSHA256 = "cdn_sha", androidVersionSHA256 = "android_sha"
        case latencyMilliseconds = "latency_ms"
    }

    static let select: SQL = """
        SELECT c.id, c.started_at, c.finished_at, c.verdict, ov.sha256 AS origin_sha, cv.sha256 AS cdn_sha, av.sha256 AS android_sha,
          c.changed, c.latency_ms, c.findings, c.expectations, c.android
        FROM checks c LEFT JOIN association_versions ov ON ov.id = c.origin_version_id
          LEFT JOIN association_versions cv ON cv.id = c.cdn_version_id LEFT JOIN association_versions av ON av.id = c.android_version_id
        """
}

/// A point of the domain's charts: one check, a roll-up's start or end, or (when a long history is
/// thinned) a time bucket of them. Changed checks, unchanged repeats and roll-ups all count.
public struct CheckPoint: Sendable {
    public var time: Date
    /// The mean latency of the checks the point stands for; nil when none of them had one (a failed fetch).
    public var latencyMilliseconds: Int?
    /// The range of those latencies (equal to the mean for a single check).
    public var latencyMinMilliseconds: Int?
    public var latencyMaxMilliseconds: Int?
    /// How many checks the point stands for (a roll-up's count is on its first end, its last end has 0).
    public var checkCount: Int
    /// The certificate's notAfter as the latest changed check at or before `time` recorded it: a
    /// repeat changed nothing, so it saw the same certificate.
    public var certificateNotAfter: Date?
}

/// Unchanged checks that followed a changed one, until the next change: repeats and roll-ups.
public struct UnchangedRun: Sendable, Hashable {
    public var count: Int
    public var firstAt: Date
    public var lastAt: Date
}

public struct VersionSummary: Sendable {
    public var sha256: String
    public var size: Int
    public var firstSeenAt: Date
}

extension CheckStore {
    public func check(id: Int64) throws -> CheckRow? {
        try firstRow(CheckRow.select + " WHERE c.id = $1", id).map(CheckRow.init(row:))
    }

    /// The per-location transport facts a check's pipeline stored; nil when there is no such check.
    public func transport(checkID: Int64) throws -> CheckTransport? {
        try firstRow("SELECT transport FROM checks WHERE id = $1", checkID).map { try $0.decode("transport") }
    }

    /// The newest of the domain's latest `limit` changed checks for which `pick` finds facts in its
    /// transport, with its start: where a 304's card finds the last full answer. Decoded one row at a
    /// time, newest first: the check before the 304 usually answers.
    public func newestChangedTransport(domainID: Int64, limit: Int,
                                       _ pick: (CheckTransport) -> TransportFacts?) throws -> (startedAt: Date, facts: TransportFacts)? {
        let rows = try rows("SELECT started_at, transport FROM checks WHERE domain_id = $1 AND changed ORDER BY started_at DESC LIMIT $2",
                            domainID, limit)
        for row in rows {
            if let facts = pick(try row.decode("transport")) { return (try row.decode("started_at"), facts) }
        }
        return nil
    }

    /// The checks that changed something (the timeline), newest first; `limit` bounds the page.
    public func checks(domainID: Int64, onlyChanges: Bool, limit: Int) throws -> [CheckRow] {
        try rows(CheckRow.select + " WHERE c.domain_id = $1 AND (c.changed OR NOT $2) ORDER BY c.started_at DESC LIMIT $3",
                 domainID, onlyChanges, limit).map(CheckRow.init(row:))
    }

    /// Latency and certificate expiry over time for the charts, oldest first: changed checks,
    /// unchanged repeats (plain rows and packed days) and roll-ups (drawn at their first and last check with their mean, min and
    /// max). At most `limit` points: a longer history is averaged into equal time buckets, so a year
    /// stays one cheap query whatever the interval.
    public func chartPoints(domainID: Int64, since: Date, limit: Int) throws -> [CheckPoint] {
        let limit = max(limit, 2)
        var points = try rows(Self.chartSeries, domainID, since, limit).map {
            CheckPoint(time: try $0.decode("t"), latencyMilliseconds: try $0.decode("mean"),
                       latencyMinMilliseconds: try $0.decode("lo"), latencyMaxMilliseconds: try $0.decode("hi"),
                       checkCount: try $0.decode("n"), certificateNotAfter: nil)
        }
        // Each point carries the certificate of the last changed check at or before it.
        let certificates: [(time: Date, notAfter: Date?)] = try rows(Self.chartCertificates, domainID, since, limit).map {
            (try $0.decode("started_at"), try $0.decode("not_after"))
        }
        var next = 0
        var current: Date?
        for i in points.indices {
            while next < certificates.count && certificates[next].time <= points[i].time {
                current = certificates[next].notAfter
                next += 1
            }
            points[i].certificateNotAfter = current
        }
        return points
    }

    static var chartSeries: SQL {
        """
        WITH pts AS (
          SELECT started_at AS t, latency_ms AS lo, latency_ms AS hi, latency_ms::float8 AS total,
                 (latency_ms IS NOT NULL)::int::float8 AS valued, 1 AS n
          FROM checks WHERE domain_id = $1 AND started_at >= $2
          UNION ALL
          SELECT checked_at, latency_ms, latency_ms, latency_ms, 1, 1
          FROM check_repeats WHERE domain_id = $1 AND checked_at >= $2
          UNION ALL
          -- The same repeats, packed a day to a row by the retention job (0056).
          SELECT e.t, e.ms, e.ms, e.ms, 1, 1
          FROM check_repeat_days p CROSS JOIN LATERAL unnest(p.checked_at, p.latency_ms) AS e(t, ms)
          WHERE p.domain_id = $1 AND p.day >= ($2::timestamptz AT TIME ZONE 'UTC')::date AND e.t >= $2
          UNION ALL
          -- A roll-up is drawn over its span: half its weight at its first check, half at its last.
          SELECT e.t, r.latency_min_ms, r.latency_max_ms, r.latency_sum_ms * e.w,
                 CASE WHEN r.latency_sum_ms IS NULL THEN 0 ELSE r.check_count * e.w END, CASE WHEN e.t = r.first_check_at THEN r.check_count ELSE 0 END
          FROM check_rollups r
          CROSS JOIN LATERAL (VALUES (r.first_check_at, CASE WHEN r.last_check_at > r.first_check_at THEN 0.5::float8 ELSE 1 END),
                                     (r.last_check_at, CASE WHEN r.last_check_at > r.first_check_at THEN 0.5::float8 ELSE 0 END)) e(t, w)
          -- A roll-up covers at most its UTC day, so the day bound lets the index find them.
          WHERE r.domain_id = $1 AND r.day >= ($2::timestamptz AT TIME ZONE 'UTC')::date AND r.last_check_at >= $2
            AND e.w > 0 AND e.t >= $2
        ), span AS (
          SELECT count(*) AS total_rows, min(t) AS t0, max(t) AS t1 FROM pts
        )
        -- Every point on its own while they fit, else the span cut into $3 equal time buckets. One
        -- aggregate over the points, no sort or window over them: a domain checked every minute
        -- has 10,080 points a week.
        SELECT max(t) AS t, round((sum(total) / nullif(sum(valued), 0))::numeric)::int AS mean, min(lo) AS lo, max(hi) AS hi,
               sum(n)::int AS n
        FROM pts, span
        GROUP BY CASE WHEN span.total_rows <= $3 THEN extract(epoch FROM pts.t)
          ELSE floor(extract(epoch FROM pts.t - span.t0) / greatest(extract(epoch FROM span.t1 - span.t0), 1) * ($3 - 1)) END
        ORDER BY 1
        """
    }

    /// The changed checks' certificate dates from the last one before `since` on (thinned to about
    /// `limit`, so only those rows open their TOASTed transport JSON).
    static var chartCertificates: SQL {
        """
        WITH c AS (
          SELECT id, started_at, row_number() OVER (ORDER BY started_at) AS n, count(*) OVER () AS total FROM checks
          WHERE domain_id = $1
            AND started_at >= coalesce((SELECT max(started_at) FROM checks WHERE domain_id = $1 AND started_at < $2), $2)
        )
        SELECT p.started_at, (c.transport #>> '{wellKnown,tls,notAfter}')::timestamptz AS not_after
        FROM c p JOIN checks c ON c.id = p.id
        WHERE p.total <= $3 OR p.n % ((p.total + $3 - 1) / $3) = 0 OR p.n = 1 OR p.n = p.total ORDER BY p.started_at
        """
    }

    /// For the latest `limit` changed checks: the unchanged checks (repeats and roll-ups) that
    /// followed each until the next change, keyed by check id; checks followed by none are absent.
    /// Roll-ups name the check they repeated; repeats (plain rows and packed days) are the domain's
    /// between two changes.
    public func unchangedRuns(domainID: Int64, limit: Int) throws -> [Int64: UnchangedRun] {
        var runs: [Int64: UnchangedRun] = [:]
        for row in try rows(Self.unchangedRunsQuery, domainID, limit) {
            runs[try row.decode("id")] = UnchangedRun(count: try row.decode("n"), firstAt: try row.decode("first_at"),
                                                      lastAt: try row.decode("last_at"))
        }
        return runs
    }

    static var unchangedRunsQuery: SQL {
        """
        WITH shown AS (
          SELECT id, started_at, next_at FROM (
            SELECT id, started_at, lead(started_at, 1, 'infinity') OVER (ORDER BY started_at) AS next_at
            FROM checks WHERE domain_id = $1 AND changed) c
          ORDER BY started_at DESC LIMIT $2
        )
        SELECT s.id, (coalesce(r.n, 0) + coalesce(k.n, 0) + coalesce(u.n, 0))::int AS n,
               least(r.first_at, k.first_at, u.first_at) AS first_at, greatest(r.last_at, k.last_at, u.last_at) AS last_at
        FROM shown s
        CROSS JOIN LATERAL (
          -- The time bounds as expressions no index serves: ANDed with the BRIN on checked_at, the
          -- domain's exact btree bitmap became lossy (every row of every page in the span rechecked:
          -- 30 ms instead of 11 for a domain checked every minute).
          SELECT count(*) AS n, min(checked_at) AS first_at, max(checked_at) AS last_at FROM check_repeats
          WHERE domain_id = $1 AND checked_at + interval '0 s' >= s.started_at AND checked_at + interval '0 s' < s.next_at) r
        CROSS JOIN LATERAL (
          -- The same repeats, packed a day to a row (0056): the days the run spans, then their entries.
          SELECT count(*) AS n, min(e.t) AS first_at, max(e.t) AS last_at
          FROM check_repeat_days p CROSS JOIN LATERAL unnest(p.checked_at) AS e(t)
          WHERE p.domain_id = $1 AND p.day BETWEEN (s.started_at AT TIME ZONE 'UTC')::date AND (s.next_at AT TIME ZONE 'UTC')::date
            AND e.t >= s.started_at AND e.t < s.next_at) k
        CROSS JOIN LATERAL (
          SELECT sum(check_count) AS n, min(first_check_at) AS first_at, max(last_check_at) AS last_at FROM check_rollups
          WHERE domain_id = $1 AND repeated_check_id = s.id) u
        WHERE r.n > 0 OR k.n > 0 OR u.n IS NOT NULL
        """
    }

    /// Every distinct file of `platform` the origin served for this domain, newest first. A new file
    /// always makes its check a changed one, so the (small) set of changed checks is enough.
    public func versions(domainID: Int64, platform: Platform) throws -> [VersionSummary] {
        try rows("""
            SELECT v.sha256, v.size, min(c.started_at) AS first_seen FROM checks c
            JOIN association_versions v ON v.id = CASE $2 WHEN 'android' THEN c.android_version_id ELSE c.origin_version_id END
            WHERE c.domain_id = $1 AND c.changed GROUP BY v.sha256, v.size ORDER BY first_seen DESC
            """, domainID, platform).map {
            VersionSummary(sha256: try $0.decode("sha256"), size: try $0.decode("size"), firstSeenAt: try $0.decode("first_seen"))
        }
    }

    /// The raw bytes of a stored version.
    public func versionBody(_ key: VersionKey) throws -> [UInt8]? {
        try firstRow("SELECT body FROM association_versions WHERE platform = $1 AND sha256 = $2", key.platform, key.sha256)?.decode("body")
    }
}
