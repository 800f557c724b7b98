import Foundation

/// One distinct association file, stored once however many checks saw it.
public struct StoredVersion: Sendable, Hashable {
    public var id: Int64
    public var sha256: String
    public var body: [UInt8]
    public var firstSeen: Date
    public var lastSeen: Date
}

extension CheckStore {
    /// Records that `body` (whose hex SHA-256 is `sha256`) was seen at `seenAt`; returns the version's
    /// id. The common case (a file already stored) sends no bytes and writes nothing, or moves
    /// `last_seen_at` at most once an hour: many domains serving one file would otherwise all queue
    /// on that one row's lock, and every check would leave a dead row version behind.
    @discardableResult
    public func storeVersion(sha256: String, body: [UInt8], seenAt: Date) throws -> Int64 {
        if let row = try firstRow("SELECT id, last_seen_at FROM aasa_versions WHERE sha256 = $1", sha256) {
            let id: Int64 = try row.decode("id")
            let lastSeen: Date = try row.decode("last_seen_at")
            if seenAt.timeIntervalSince(lastSeen) > 3600 { try execute(Self.touchVersion, sha256, seenAt) }
            return id
        }
        return try value(Self.insertVersion, sha256, body, body.count, seenAt)
    }

    public func version(sha256: String) throws -> StoredVersion? {
        try firstRow("SELECT id, sha256, body, first_seen_at, last_seen_at FROM aasa_versions WHERE sha256 = $1", sha256).map {
            StoredVersion(id: try $0.decode("id"), sha256: try $0.decode("sha256"), body: try $0.decode("body"),
                          firstSeen: try $0.decode("first_seen_at"), lastSeen: try $0.decode("last_seen_at"))
        }
    }

    static var touchVersion: SQL {
        "UPDATE aasa_versions SET last_seen_at = GREATEST(last_seen_at, $2) WHERE sha256 = $1"
    }

    /// Two workers may store the same new file at once: the loser's insert becomes an update.
    static var insertVersion: SQL {
        """
        INSERT INTO aasa_versions (sha256, body, size, first_seen_at, last_seen_at) VALUES ($1, $2, $3, $4, $4)
        ON CONFLICT (sha256) DO UPDATE SET last_seen_at = GREATEST(aasa_versions.last_seen_at, EXCLUDED.last_seen_at)
        RETURNING id
        """
    }
}
