import Foundation
import Vocabulary

/// Which stored file: association files are content-addressed per platform, so the same bytes served
/// as Apple's and as Android's file are two versions (table `association_versions`).
public struct VersionKey: Sendable, Hashable {
    public var platform: Platform
    /// Lower-case hex SHA-256 of the bytes.
    public var sha256: String

    public init(_ platform: Platform, sha256: String) {
        self.platform = platform
        self.sha256 = sha256
    }
}

/// One distinct association file, stored once however many checks saw it.
public struct StoredVersion: Sendable, Hashable {
    public var id: Int64
    public var platform: Platform
    public var sha256: String
    public var body: [UInt8]
    public var firstSeen: Date
    public var lastSeen: Date
}

/// A stored version as a view reads it (`versionReading`, or `versionDocument` for its document
/// alone): what it asked of the reading, or — for a version stored before readings were (migration
/// 0033), or by a writer that had none — its bytes, for the one reader that reads them and writes
/// the reading back (Monitor's `StoredVersions`).
public enum StoredReading<Value: Sendable>: Sendable {
    case read(Value)
    case unread([UInt8])
}

extension CheckStore {
    /// Records that `file` was seen at `seenAt`; returns the version's id. The common case (a file
    /// already stored) sends no bytes and writes nothing, or moves `last_seen_at` at most once an
    /// hour: many domains serving one file would otherwise all queue on that one row's lock, and every
    /// check would leave a dead row version behind. A reading given with the file is written with a
    /// new row, or into a stored row that has none yet.
    @discardableResult
    public func storeVersion(_ file: StoredBody, seenAt: Date) throws -> Int64 {
        if let row = try firstRow("""
            SELECT id, last_seen_at, reading IS NULL AS unread FROM association_versions WHERE platform = $1 AND sha256 = $2
            """, file.platform, file.sha256) {
            let id: Int64 = try row.decode("id")
            let lastSeen: Date = try row.decode("last_seen_at")
            if seenAt.timeIntervalSince(lastSeen) > 3600 { try execute(Self.touchVersion, id, seenAt) }
            if let reading = file.readingJSON, try row.decode("unread", as: Bool.self) {
                try execute("UPDATE association_versions SET reading = $2::jsonb WHERE id = $1 AND reading IS NULL", id, reading)
            }
            return id
        }
        return try value(Self.insertVersion, file.platform, file.sha256, file.bytes, file.bytes.count, seenAt, file.readingJSON)
    }

    /// The stored reading of a version (nil: no such version); its bytes instead while it has none.
    /// The bytes are sent only then: a read version costs its reading alone.
    public func versionReading<Document>(_ key: VersionKey, of type: Document.Type) throws -> StoredReading<VersionReading<Document>>? {
        guard let row = try firstRow("""
            SELECT reading, CASE WHEN reading IS NULL THEN body END AS body FROM association_versions WHERE platform = $1 AND sha256 = $2
            """, key.platform, key.sha256) else { return nil }
        if let body: [UInt8] = try row.decode("body") { return .unread(body) }
        return .read(try row.decodeJSON("reading", as: VersionReading<Document>.self))
    }

    /// The document of a version's stored reading alone (nil inside: the core could not read the
    /// file), for a reader that shows no text (the URL tester): the pretty text with its pointers is
    /// most of a reading, and decoding it made the tester slower than parsing the bytes again
    /// (Benchmarks/ReadingBench). Its bytes instead while it has no reading, as `versionReading`.
    public func versionDocument<Document: Codable & Sendable>(_ key: VersionKey, of type: Document.Type) throws -> StoredReading<Document?>? {
        guard let row = try firstRow("""
            SELECT reading->'document' AS document, CASE WHEN reading IS NULL THEN body END AS body
            FROM association_versions WHERE platform = $1 AND sha256 = $2
            """, key.platform, key.sha256) else { return nil }
        if let body: [UInt8] = try row.decode("body") { return .unread(body) }
        // A reading without a document has no key for it (SQL NULL) or a JSON null.
        guard try row.decode("document", as: String?.self) != nil else { return .read(nil) }
        return .read(try row.decodeJSON("document", as: Document?.self))
    }

    /// Writes the reading of a version stored without one; a reading already there stays (two readers
    /// of the same unread version compute the same reading, and the first one's stands).
    public func saveReading<Document>(_ reading: VersionReading<Document>, for key: VersionKey) throws {
        try execute("UPDATE association_versions SET reading = $3::jsonb WHERE platform = $1 AND sha256 = $2 AND reading IS NULL",
                    key.platform, key.sha256, try StoredJSON.encode(reading))
    }

    public func version(_ key: VersionKey) throws -> StoredVersion? {
        try firstRow("""
            SELECT id, platform, sha256, body, first_seen_at, last_seen_at FROM association_versions WHERE platform = $1 AND sha256 = $2
            """, key.platform, key.sha256).map {
            StoredVersion(id: try $0.decode("id"), platform: try $0.decode("platform"), sha256: try $0.decode("sha256"),
                          body: try $0.decode("body"), firstSeen: try $0.decode("first_seen_at"), lastSeen: try $0.decode("last_seen_at"))
        }
    }

    static var touchVersion: SQL {
        "UPDATE association_versions SET last_seen_at = GREATEST(last_seen_at, $2) WHERE id = $1"
    }

    /// Two workers may store the same new file at once: the loser's insert becomes an update.
    static var insertVersion: SQL {
        """
        INSERT INTO association_versions (platform, sha256, body, size, first_seen_at, last_seen_at, reading)
        VALUES ($1, $2, $3, $4, $5, $5, $6::jsonb)
        ON CONFLICT (platform, sha256) DO UPDATE SET last_seen_at = GREATEST(association_versions.last_seen_at, EXCLUDED.last_seen_at),
          reading = coalesce(association_versions.reading, EXCLUDED.reading)
        RETURNING id
        """
    }
}
