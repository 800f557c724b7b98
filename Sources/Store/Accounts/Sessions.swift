import Foundation

/// A signed-in browser: the session joined with its user.
public struct SessionRecord: Sendable, Hashable {
    public var userID: Int64
    public var email: String
    public var role: Role
    public var csrfToken: String
    public var expiresAt: Date
}

extension AccountStore {
    /// Stores a session by the SHA-256 of its cookie token (the token itself never reaches the database).
    public func createSession(tokenHash: String, userID: Int64, csrfToken: String, expiresAt: Date) throws {
        try execute("INSERT INTO sessions (token_hash, user_id, csrf_token, expires_at) VALUES ($1, $2, $3, $4)",
                    tokenHash, userID, csrfToken, expiresAt)
    }

    /// The live session for a token hash; expired sessions are not returned.
    public func session(tokenHash: String) throws -> SessionRecord? {
        guard let row = try firstRow("""
            SELECT s.user_id, u.email, u.role, s.csrf_token, s.expires_at FROM sessions s JOIN users u ON u.id = s.user_id
            WHERE s.token_hash = $1 AND s.expires_at > now()
            """, tokenHash) else { return nil }
        return SessionRecord(userID: try row.decode("user_id"), email: try row.decode("email"), role: try row.decode("role"),
                             csrfToken: try row.decode("csrf_token"), expiresAt: try row.decode("expires_at"))
    }

    public func deleteSession(tokenHash: String) throws {
        try execute("DELETE FROM sessions WHERE token_hash = $1", tokenHash)
    }

    /// Housekeeping: forget sessions that can no longer be used.
    @discardableResult
    public func deleteExpiredSessions() throws -> Int {
        try execute("DELETE FROM sessions WHERE expires_at <= now()")
    }
}
