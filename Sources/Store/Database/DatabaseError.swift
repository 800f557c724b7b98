/// A failure of the database machinery, typed so callers can react (retry, report 503, show a
/// conflict) without parsing message text. Problems found in users' data are never thrown as these.
public enum DatabaseError: Error, Sendable, CustomStringConvertible {
    /// A connection could not be opened (server down, socket missing, authentication refused).
    case connectionFailed(message: String)
    /// An open connection broke while a statement was being sent or answered.
    case connectionLost(message: String)
    /// The server refused a statement. `sqlState` is the five-character SQLSTATE code.
    case server(ServerError)
    /// A column's value could not be turned into the requested Swift type.
    case decoding(column: String, message: String)
    /// Every pooled connection stayed busy for the whole acquire timeout.
    case poolTimeout(waited: Duration, size: Int)

    public var description: String {
        switch self {
        case .connectionFailed(let message): return "could not connect to PostgreSQL: \(message)"
        case .connectionLost(let message): return "lost the connection to PostgreSQL: \(message)"
        case .server(let error): return error.description
        case .decoding(let column, let message): return "cannot decode column \(column): \(message)"
        case .poolTimeout(let waited, let size):
            return "all \(size) database connections stayed busy for \(waited); raise the pool size or find the slow query"
        }
    }

    /// True when the failure says nothing about the statement itself, only that the server could not
    /// be reached: the caller may try again later (and the pool may retry once on a fresh connection).
    public var isConnectionProblem: Bool {
        switch self {
        case .connectionFailed, .connectionLost: return true
        case .server(let error): return error.isConnectionClass
        case .decoding, .poolTimeout: return false
        }
    }

    /// The SQLSTATE when the server refused the statement.
    public var sqlState: String? {
        if case .server(let error) = self { return error.sqlState }
        return nil
    }

    /// 23505: a row with the same unique key exists.
    public var isUniqueViolation: Bool { sqlState == "23505" }
    /// 40001 / 40P01: the transaction lost a serialization race or a deadlock; running it again is safe.
    public var isSerializationFailure: Bool { sqlState == "40001" || sqlState == "40P01" }
}

/// What the server said when it refused a statement: the SQLSTATE plus its human-readable parts.
public struct ServerError: Sendable, CustomStringConvertible {
    public var sqlState: String
    public var severity: String = "ERROR"
    public var message: String
    public var detail: String?
    public var hint: String?
    /// The constraint that was violated, when the error is a constraint violation.
    public var constraint: String?

    public var description: String {
        var text = "\(severity) \(sqlState): \(message)"
        if let detail { text += " (\(detail))" }
        if let hint { text += " Hint: \(hint)" }
        return text
    }

    /// Class 08 (connection exception) and the 57P0x shutdown codes mean the server went away or is
    /// restarting, not that the statement was wrong.
    var isConnectionClass: Bool {
        sqlState.hasPrefix("08") || sqlState == "57P01" || sqlState == "57P02" || sqlState == "57P03"
    }
}
