import Foundation
import Store

/// How a channel's target is shown on pages, in API answers and by the CLI. A credential goes in
/// and never comes out, so no audience ever sees one:
/// - a target a config file wrote with `${NAME}` references shows as the file wrote it (the
///   reference, never the value read from the environment);
/// - a URL that is itself a credential (Slack, Teams, Discord, Google Chat, Mattermost, ntfy)
///   shows its scheme and host only, to everyone, admins included;
/// - other URLs (our signed webhook, the custom one, a provider's API) show whole to those who may
///   change channels, and redacted to read-only viewers, who have no use for a receiver's path;
/// - an email address shows as it is.
extension ChannelRecord {
    public static let hiddenHint = "(rest hidden: the URL may hold a credential)"

    /// Whether the target is shown to no one as it is: a credential URL, or one a config file read
    /// (in part) from the environment. A form never sends such a target back, so an edit that leaves
    /// it empty keeps it.
    public var targetIsHidden: Bool {
        kind.inputs.targetIsCredential || (targetTemplate.map { $0 != target } ?? false)
    }

    public func shownTarget(toAdmin: Bool) -> String {
        if let template = targetTemplate, template != target { return template }
        if kind == .email { return target }
        if kind.inputs.targetIsCredential || !toAdmin { return Self.redacted(target) }
        return target
    }

    /// `https://hooks.example.com/…` for `https://hooks.example.com/services/T0/B0/secret?x=1`; no
    /// user info, path, query or fragment survives. Something that is not a URL shows nothing of itself.
    public static func redacted(_ url: String) -> String {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme, let host = parts.host, !host.isEmpty else {
            return "webhook " + hiddenHint
        }
        let port = parts.port.map { ":\($0)" } ?? ""
        let hostText = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme)://\(hostText)\(port)/… " + hiddenHint
    }
}
