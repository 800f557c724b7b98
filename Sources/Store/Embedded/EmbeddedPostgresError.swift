/// Why the embedded PostgreSQL could not be set up or started; each case says what to do.
public enum EmbeddedPostgresError: Error, CustomStringConvertible, Sendable {
    case binariesNotFound(searched: [String])
    case commandFailed(command: String, status: Int32, output: String)
    case socketPathTooLong(path: String)
    case notACluster(path: String)
    case ownedByAnotherUser(path: String, owner: String)
    case accountUnavailable(message: String)
    case startFailed(message: String, logTail: String)

    public var description: String {
        switch self {
        case .binariesNotFound(let searched):
            return "PostgreSQL's initdb and pg_ctl were not found (looked in \(searched.joined(separator: ", "))). "
                + "Install them (scripts/bootstrap, or apt-get install postgresql) or set DATABASE_URL to use an existing server."
        case .commandFailed(let command, let status, let output):
            return "\(command) exited with status \(status): \(output)"
        case .socketPathTooLong(let path):
            return "the PostgreSQL socket path \(path) is longer than the 107 bytes a Unix socket allows; "
                + "choose a shorter --data-dir"
        case .notACluster(let path):
            return "\(path) exists but is not a PostgreSQL cluster (no PG_VERSION); move it away or choose another --data-dir"
        case .ownedByAnotherUser(let path, let owner):
            return "the cluster in \(path) belongs to \(owner); run aasa-monitor as that user (or as root), or choose another --data-dir"
        case .accountUnavailable(let message):
            return "PostgreSQL refuses to run as root and no unprivileged account could be used: \(message)"
        case .startFailed(let message, let logTail):
            return "PostgreSQL did not start: \(message)\n--- end of the server log ---\n\(logTail)"
        }
    }
}
