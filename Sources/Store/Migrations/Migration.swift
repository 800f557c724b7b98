/// One schema change: `Migrations/NNNN_name.sql`, identified by its number, pinned by its checksum.
public struct Migration: Sendable, Equatable {
    public var version: Int
    public var name: String
    public var fileName: String
    public var sql: String
    /// SHA-256 (hex) of the file's bytes; an applied migration whose file changed is refused.
    public var checksum: String
    /// A first line `-- migrate: no-transaction` runs the file outside a transaction (needed for
    /// CREATE INDEX CONCURRENTLY); such a file should be safe to run again if it fails halfway.
    public var runsInTransaction: Bool

    public init(fileName: String, contents: [UInt8]) throws {
        guard fileName.hasSuffix(".sql"), let underscore = fileName.firstIndex(of: "_"),
              let version = Int(fileName[..<underscore]), fileName.distance(from: fileName.startIndex, to: underscore) == 4 else {
            throw MigrationError.badFileName(fileName)
        }
        self.version = version
        self.fileName = fileName
        name = String(fileName[fileName.index(after: underscore)...].dropLast(4))
        sql = String(decoding: contents, as: UTF8.self)
        checksum = SHA256.hex(contents)
        runsInTransaction = !(sql.split(separator: "\n", maxSplits: 1).first.map {
            $0.trimmingCharacters(in: .whitespaces) == "-- migrate: no-transaction"
        } ?? false)
    }
}
