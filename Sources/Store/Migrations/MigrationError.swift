/// Why migrating stopped. Start-up refuses to go on with any of these.
public enum MigrationError: Error, CustomStringConvertible, Sendable {
    case directoryNotFound(searched: [String])
    case badFileName(String)
    case duplicateVersion(Int, files: [String])
    case checksumMismatch(file: String, applied: String, current: String)
    case failed(file: String, error: DatabaseError)

    public var description: String {
        switch self {
        case .directoryNotFound(let searched):
            return "the Migrations directory was not found (looked in \(searched.joined(separator: ", "))); "
                + "pass --migrations-dir or set AASA_MONITOR_MIGRATIONS_DIR"
        case .badFileName(let name):
            return "\(name) is not named like a migration: NNNN_name.sql (four digits, an underscore, a name)"
        case .duplicateVersion(let version, let files):
            return "migration number \(version) is used twice: \(files.joined(separator: " and ")); renumber one of them"
        case .checksumMismatch(let file, let applied, let current):
            return "\(file) was changed after it was applied (applied sha256 \(applied.prefix(12))…, file now \(current.prefix(12))…). "
                + "Applied migrations must not change: restore the file and put the change in a new migration"
        case .failed(let file, let error):
            return "\(file) failed and was rolled back: \(error)"
        }
    }
}
