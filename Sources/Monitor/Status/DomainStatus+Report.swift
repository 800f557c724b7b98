import Foundation
import Store
import Vocabulary

/// Renders the status list for people and for scripts. The JSON shape is an API:
/// `{"domains": [{"host", "state", "platforms", "apple", "android", "reason", "last_check", "version", "open_alerts", "paused"}]}`.
extension DomainStatus {
    struct ReportDocument: Encodable {
        var domains: [ReportEntry]
    }

    struct ReportEntry: Encodable {
        var host: String
        var state: String
        @PublicJSON.NullWhenAbsent var lastCheck: String?
        @PublicJSON.NullWhenAbsent var version: String?
        var openAlerts: [String]
        @PublicJSON.NullWhenAbsent var reason: String?
        var platforms: WatchedPlatforms
        /// Each platform's state word; null where it is not watched, does not count or was not checked.
        @PublicJSON.NullWhenAbsent var apple: String?
        @PublicJSON.NullWhenAbsent var android: String?
        var paused: Bool
    }

    public static func json(_ statuses: [DomainStatus]) -> String {
        let formatter = ISO8601DateFormatter()
        let document = ReportDocument(domains: statuses.map {
            ReportEntry(host: $0.host, state: $0.state.statusWord, lastCheck: $0.lastCheck.map(formatter.string(from:)),
                  version: $0.version, openAlerts: $0.openAlerts, reason: $0.reason?.line, platforms: $0.platforms,
                  apple: $0.apple?.statusWord, android: $0.android?.statusWord, paused: $0.paused)
        })
        let encoder = PublicJSON.encoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings, arrays and optionals cannot fail.
        let data = (try? encoder.encode(document)) ?? Data("{\"domains\":[]}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// A fixed-width table, one domain per line (a failing or warning one adds its reason below), problems easy to spot.
    public static func text(_ statuses: [DomainStatus], now: Date) -> String {
        lines(statuses, now: now).joined(separator: "\n")
    }

    /// The table's lines, for callers that escape each line for display (the CLI).
    public static func lines(_ statuses: [DomainStatus], now: Date) -> [String] {
        guard !statuses.isEmpty else { return ["No domains registered."] }
        let hostWidth = min(max(statuses.map(\.host.count).max() ?? 4, 4), 60)
        var lines = [pad("HOST", hostWidth) + "  " + pad("STATE", 13) + "  " + pad("APPLE", 8) + "  " + pad("ANDROID", 8) + "  "
                     + pad("LAST CHECK", 12) + "  " + pad("VERSION", 12) + "  OPEN ALERTS"]
        for status in statuses {
            let last = status.lastCheck.map { age(now.timeIntervalSince($0)) + " ago" } ?? "-"
            let version = status.version.map { String($0.prefix(12)) } ?? "-"
            let alerts = status.openAlerts.isEmpty ? "-" : status.openAlerts.joined(separator: ", ")
            // "-": the platform is not watched, does not count for the domain, or was not checked yet.
            let apple = status.apple?.statusWord ?? "-", android = status.android?.statusWord ?? "-"
            lines.append(pad(status.host, hostWidth) + "  " + pad(status.state.statusWord, 13) + "  " + pad(apple, 8) + "  "
                         + pad(android, 8) + "  " + pad(last, 12)
                         + "  " + pad(version, 12) + "  " + alerts)
            // A domain in trouble says why on the next line, under its state.
            if status.state == .failing || status.state == .warning, let reason = status.reason {
                lines.append(String(repeating: " ", count: hostWidth + 2) + "↳ " + reason.line)
            }
            // Its state is the last check's and stays so: say why it does not move.
            if status.paused {
                lines.append(String(repeating: " ", count: hostWidth + 2) + "↳ paused: not checked until resumed (aasa-monitor resume \(status.host))")
            }
        }
        return lines
    }

    /// `status`'s exit status, as `check`'s: the worst domain's state, which is already the worse of
    /// its watched platforms (unmet expectations included) — 0 every domain passing or not checked
    /// yet, 1 one has warnings, 2 one is failing.
    public static func exitStatus(_ statuses: [DomainStatus]) -> Int32 {
        if statuses.contains(where: { $0.state == .failing }) { return 2 }
        return statuses.contains { $0.state == .warning } ? 1 : 0
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    static func age(_ seconds: TimeInterval) -> String {
        let s = max(Int(seconds), 0)
        if s < 120 { return "\(s) s" }
        if s < 7200 { return "\(s / 60) min" }
        if s < 172_800 { return "\(s / 3600) h" }
        return "\(s / 86_400) d"
    }
}

extension DomainState {
    /// The state as `aasa-monitor status` prints it (text and JSON; an API since 2026): the pages'
    /// label in lower case — "passing", "warnings", "failing", "never checked".
    var statusWord: String { label.lowercased() }
}
