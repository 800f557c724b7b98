import Store
import TextEncoding

/// Per-session CSRF tokens: an HMAC of a fixed label keyed by the session secret. Nothing extra is
/// stored, the token changes whenever the session does, and a page from another origin cannot read
/// the HttpOnly cookie it is derived from.
public enum CSRFToken {
    static let label = Array("aasa-monitor csrf v1".utf8)

    public static func make(forSession sessionSecret: String) -> String {
        Hex.encode(SHA256.hmac(key: SHA256.digest(Array(sessionSecret.utf8)), message: label))
    }

    public static func isValid(_ presented: String?, forSession sessionSecret: String) -> Bool {
        guard let presented, !sessionSecret.isEmpty else { return false }
        return Crypto.constantTimeEqual(Array(presented.utf8), Array(make(forSession: sessionSecret).utf8))
    }
}
