/// The cookies the dashboard sets. The session cookie carries the secret; the visitor cookie exists
/// before login so the login and setup forms have a CSRF token too.
public enum SessionCookie {
    public static let sessionName = "aasa_session"
    public static let visitorName = "aasa_visitor"
    /// A session lives this long after it was created, then the user logs in again.
    public static let lifetimeSeconds = 14 * 24 * 3600

    /// HttpOnly keeps scripts away from it; SameSite=Lax stops cross-site POSTs from carrying it;
    /// Secure whenever the dashboard is served over HTTPS.
    public static func set(name: String, value: String, maxAge: Int, secure: Bool) -> String {
        var parts = ["\(name)=\(value)", "Path=/", "Max-Age=\(maxAge)", "HttpOnly", "SameSite=Lax"]
        if secure { parts.append("Secure") }
        return parts.joined(separator: "; ")
    }

    public static func clear(name: String, secure: Bool) -> String {
        set(name: name, value: "", maxAge: 0, secure: secure)
    }
}
