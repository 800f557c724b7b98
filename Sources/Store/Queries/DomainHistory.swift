import Foundation

/// A stored check, as the domain page and the API show it.
public struct CheckRow: Sendable {
    public var id: Int64
    public var startedAt: Date
    public var finishedAt: Date?
    public var verdict: String?
    public var originVersionSHA256: String?
    public var cdnVersionSHA256: String?
    public var changed: Bool
    public var latencyMilliseconds: Int?
    /// JSON as stored by the check pipeline.
    public var transportJSON: String
    public var findingsJSON: String
    public var expectationsJSON: String

    init(row: Row) throws {
        id = try row.decode("id")
        startedAt = try row.decode("started_at")
        finishedAt = try row.decode("finished_at")
        verdict = try row.decode("verdict")
        originVersionSHA256 = try row.decode("origin_sha")
        cdnVersionSHA256 = try row.decode("cdn_sha")
        changed = try row.decode("changed")
        latencyMilliseconds = try row.decode("latency_ms")
        transportJSON = try row.decode("transport")
        findingsJSON = try row.decode("findings")
        expectationsJSON = try row.decode("expectations")
    }

    static let select: SQL = """
        SELECT c.id, c.started_at, c.finished_at, c.verdict, ov.sha256 AS origin_sha, cv.sha256 AS cdn_sha, c.changed,
          c.latency_ms, c.transport::text AS transport, c.findings::text AS findings, c.expectations::text AS expectations
        FROM checks c LEFT JOIN aasa_versions ov ON ov.id = c.origin_version_id LEFT JOIN aasa_versions cv ON cv.id = c.cdn_version_id
        """
}

/// A point of the domain's charts.
public struct CheckPoint: Sendable {
    public var time: Date
    public var latencyMilliseconds: Int?
    /// The certificate's notAfter as the check recorded it (ISO 8601 text), if any.
    public var certificateNotAfter: String?
}

public struct VersionSummary: Sendable {
    public var sha256: String
    public var size: Int
    public var firstSeenAt: Date
}

extension Queryable {
    public func check(id: Int64) throws -> CheckRow? {
        try firstRow(CheckRow.select + " WHERE c.id = $1", id).map(CheckRow.init(row:))
    }

    /// The checks that changed something (the timeline), newest first; `limit` bounds the page.
    public func checks(domainID: Int64, onlyChanges: Bool, limit: Int) throws -> [CheckRow] {
        try rows(CheckRow.select + " WHERE c.domain_id = $1 AND (c.changed OR NOT $2) ORDER BY c.started_at DESC LIMIT $3",
                 domainID, onlyChanges, limit).map(CheckRow.init(row:))
    }

    /// Latency and certificate expiry over time for the charts, oldest first, at most `limit` points
    /// (evenly thinned when there are more), so a year of five-minute checks stays one cheap query.
    public func chartPoints(domainID: Int64, since: Date, limit: Int) throws -> [CheckPoint] {
        try rows("""
            WITH pts AS (
              SELECT id, started_at, latency_ms, row_number() OVER (ORDER BY started_at) AS n, count(*) OVER () AS total
              FROM checks WHERE domain_id = $1 AND started_at >= $2
            )
            -- Thin first, then open the (large, TOASTed) transport JSON of the kept rows only.
            SELECT p.started_at, p.latency_ms,
              coalesce(c.transport #>> '{wellKnown,tls,notAfter}', c.transport #>> '{well-known,tls,notAfter}') AS not_after
            FROM pts p JOIN checks c ON c.id = p.id
            WHERE p.total <= $3 OR p.n % ((p.total + $3 - 1) / $3) = 0 OR p.n = p.total ORDER BY p.started_at
            """, domainID, since, limit).map {
            CheckPoint(time: try $0.decode("started_at"), latencyMilliseconds: try $0.decode("latency_ms"),
                       certificateNotAfter: try $0.decode("not_after"))
        }
    }

    /// Every distinct file the origin served for this domain, newest first. A new file always makes
    /// its check a changed one, so the (small) set of changed checks is enough.
    public func versions(domainID: Int64) throws -> [VersionSummary] {
        try rows("""
            SELECT v.sha256, v.size, min(c.started_at) AS first_seen FROM checks c JOIN aasa_versions v ON v.id = c.origin_version_id
            WHERE c.domain_id = $1 AND c.changed GROUP BY v.sha256, v.size ORDER BY first_seen DESC
            """, domainID).map {
            VersionSummary(sha256: try $0.decode("sha256"), size: try $0.decode("size"), firstSeenAt: try $0.decode("first_seen"))
        }
    }

    /// The raw bytes of a stored version.
    public func versionBody(sha256: String) throws -> [UInt8]? {
        try firstRow("SELECT body FROM aasa_versions WHERE sha256 = $1", sha256)?.decode("body")
    }
}
