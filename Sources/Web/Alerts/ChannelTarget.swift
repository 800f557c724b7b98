import Foundation

/// How a channel's target is shown. Webhook URLs of Slack, Teams, Discord and the like carry their credential
/// in the path or query, so only admins see them whole; read-only users see the scheme and host,
/// enough to tell the channels apart, and a hint that the rest is hidden.
enum ChannelTarget {
    static let hiddenHint = "(path hidden: only admins see the whole address)"

    static func shown(kind: String, target: String, to viewer: Viewer) -> String {
        guard kind != "email", !viewer.canChange else { return target }
        return redacted(target)
    }

    /// `https://hooks.example.com/…` for `https://hooks.example.com/services/T0/B0/secret?x=1`; no
    /// user info, path, query or fragment survives. Something that is not a URL shows nothing of itself.
    static func redacted(_ url: String) -> String {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme, let host = parts.host, !host.isEmpty else {
            return "webhook " + hiddenHint
        }
        let port = parts.port.map { ":\($0)" } ?? ""
        let hostText = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme)://\(hostText)\(port)/… " + hiddenHint
    }

}
