import Foundation

/// A dashboard account. `role` is `admin` or `viewer` (read-only).
public struct UserRecord: Sendable, Hashable {
    public var id: Int64
    public var email: String
    public var passwordHash: String
    public var role: Role
    public var createdAt: Date
}

extension UserRecord: RowDecodable {}

extension AccountStore {
    public func userCount() throws -> Int {
        try value("SELECT count(*) FROM users")
    }

    /// Creates a user; nil when the email (compared case-insensitively) is taken.
    public func createUser(email: String, passwordHash: String, role: Role) throws -> Int64? {
        try firstRow("""
            INSERT INTO users (email, password_hash, role) VALUES ($1, $2, $3)
            ON CONFLICT (lower(email)) DO NOTHING RETURNING id
            """, email, passwordHash, role)?.decode("id")
    }

    /// Creates the first admin only while there is no user at all: two racing setup forms cannot
    /// both win, because the insert and the emptiness test are one statement under a lock.
    public func createFirstAdmin(email: String, passwordHash: String) throws -> Int64? {
        try execute("LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE")
        return try firstRow("""
            INSERT INTO users (email, password_hash, role) SELECT $1, $2, 'admin'
            WHERE NOT EXISTS (SELECT 1 FROM users) RETURNING id
            """, email, passwordHash)?.decode("id")
    }

    public func user(email: String) throws -> UserRecord? {
        try firstRow("SELECT id, email, password_hash, role, created_at FROM users WHERE lower(email) = lower($1)", email)
            .map(UserRecord.init(row:))
    }

    public func user(id: Int64) throws -> UserRecord? {
        try firstRow("SELECT id, email, password_hash, role, created_at FROM users WHERE id = $1", id)
            .map(UserRecord.init(row:))
    }

    public func users() throws -> [UserRecord] {
        try rows("SELECT id, email, password_hash, role, created_at FROM users ORDER BY lower(email)").map(UserRecord.init(row:))
    }

    @discardableResult
    public func deleteUser(id: Int64) throws -> Bool {
        try execute("DELETE FROM users WHERE id = $1", id) == 1
    }

    /// Sets a new password hash and ends every session of the user, in one statement pair the caller
    /// runs in a transaction; the caller then starts a fresh session for the browser that asked.
    public func changePassword(userID: Int64, passwordHash: String) throws {
        try execute("UPDATE users SET password_hash = $2, password_changed_at = now() WHERE id = $1", userID, passwordHash)
        try execute("DELETE FROM sessions WHERE user_id = $1", userID)
    }
}
