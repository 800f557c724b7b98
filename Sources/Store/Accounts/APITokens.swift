import Foundation

public struct APITokenRecord: Sendable, Hashable {
    public var id: Int64
    public var name: String
    public var role: Role
    public var createdAt: Date
    public var lastUsedAt: Date?
}

extension AccountStore {
    public func createAPIToken(name: String, tokenHash: String, userID: Int64?, role: Role) throws -> Int64 {
        try value("INSERT INTO api_tokens (name, token_hash, user_id, role) VALUES ($1, $2, $3, $4) RETURNING id",
                  name, tokenHash, userID, role)
    }

    /// The live token for a hash, marking it used; revoked tokens are not returned.
    public func useAPIToken(tokenHash: String) throws -> APITokenRecord? {
        try firstRow("""
            UPDATE api_tokens SET last_used_at = now() WHERE token_hash = $1 AND revoked_at IS NULL
            RETURNING id, name, role, created_at, last_used_at
            """, tokenHash).map(APITokenRecord.init(row:))
    }

    public func apiTokens() throws -> [APITokenRecord] {
        try rows("SELECT id, name, role, created_at, last_used_at FROM api_tokens WHERE revoked_at IS NULL ORDER BY created_at")
            .map(APITokenRecord.init(row:))
    }

    @discardableResult
    public func revokeAPIToken(id: Int64) throws -> Bool {
        try execute("UPDATE api_tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL", id) == 1
    }
}

extension APITokenRecord: RowDecodable {}
