import Foundation
import Store

/// Signed-in browsers: finds the session a cookie names (cached until sessions or users change) and
/// starts new ones. Only the SHA-256 of a session's secret is stored.
final class Sessions: Sendable {
    let database: Database
    let changes: ChangeFeed
    /// Session lookups until sessions or users change (logout, password change, user removal, from
    /// any process), and at most `sessionCacheLifetime`.
    let cache: GenerationCache<SessionRecord?>

    init(database: Database, changes: ChangeFeed, cacheLifetime: Duration) {
        self.database = database
        self.changes = changes
        self.cache = GenerationCache(ttl: cacheLifetime, capacity: 10_000)
    }

    struct Active {
        /// The cookie's secret, from which the session's CSRF tokens derive.
        let secret: String
        let viewer: Viewer
    }

    /// The session the request's cookie names, when it exists and has not expired.
    func current(_ request: WebRequest, now: Date = Date()) throws -> Active? {
        guard let secret = request.cookies[SessionCookie.sessionName], !secret.isEmpty, secret.utf8.count <= 128 else { return nil }
        let digest = SecretToken.digest(of: secret)
        let changes = self.changes, database = self.database
        guard let record = try cache.value(digest, generation: { changes.accountsGeneration }, cacheable: changes.isLive,
                                           compute: { try database.session(tokenHash: digest) }) else { return nil }
        // The cache may hold a session a moment past its expiry; the database would not.
        guard record.expiresAt > now else { return nil }
        let viewer = Viewer(userID: record.userID, email: record.email, role: record.role,
                            csrf: record.csrfToken)
        return Active(secret: secret, viewer: viewer)
    }

    /// Starts a session for `userID` and returns the cookie header that carries it.
    func start(userID: Int64, secure: Bool) throws -> String {
        let token = SecretToken.generate()
        let expires = Date().addingTimeInterval(TimeInterval(SessionCookie.lifetimeSeconds))
        try database.createSession(tokenHash: token.digest, userID: userID, csrfToken: CSRFToken.make(forSession: token.value),
                                   expiresAt: expires)
        return SessionCookie.set(name: SessionCookie.sessionName, value: token.value, maxAge: SessionCookie.lifetimeSeconds,
                                 secure: secure)
    }
}
