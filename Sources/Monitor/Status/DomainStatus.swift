import Vocabulary
import Foundation
import Store
import Vocabulary

/// One line of `aasa-monitor status`: a domain's state, last check, current file and open alerts.
public struct DomainStatus: Hashable, Sendable {
    public var host: String
    public var state: DomainState
    public var lastCheck: Date?
    /// sha256 (hex) of the file the origin serves now.
    public var version: String?
    /// Open alerts as `rule` or `rule subject`, e.g. `app-id-missing applinks ABCDE12345.app`.
    public var openAlerts: [String]
    /// The one line that explains the state (an unmet expectation, else the worst finding).
    public var reason: String?

    public init(host: String, state: DomainState, lastCheck: Date?, version: String?, openAlerts: [String],
                reason: String? = nil) {
        self.host = host
        self.state = state
        self.lastCheck = lastCheck
        self.version = version
        self.openAlerts = openAlerts
        self.reason = reason
    }

    /// A stored domain's status: its state is the domain's (the file's verdict made worse by unmet
    /// expectations), not the latest check's file verdict alone.
    public init(row: DomainStatusRow) {
        self.init(host: row.host, state: DomainState(verdict: row.lastVerdict),
                  lastCheck: row.lastCheckAt, version: row.versionSHA256, openAlerts: row.openAlerts, reason: row.reason)
    }
}

/// Renders the status list for people and for scripts. The JSON shape is an API:
/// `{"domains": [{"host", "state", "reason", "lastCheck", "version", "openAlerts"}]}`.
public enum DomainStatusReport {
    struct Document: Encodable {
        var domains: [Entry]
    }

    struct Entry: Encodable {
        var host: String
        var state: String
        var lastCheck: String?
        var version: String?
        var openAlerts: [String]
        var reason: String?

        // Nulls are written out, so a script can rely on every key being present.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(host, forKey: .host)
            try container.encode(state, forKey: .state)
            try container.encode(lastCheck, forKey: .lastCheck)
            try container.encode(version, forKey: .version)
            try container.encode(openAlerts, forKey: .openAlerts)
            try container.encode(reason, forKey: .reason)
        }

        enum CodingKeys: String, CodingKey { case host, state, lastCheck, version, openAlerts, reason }
    }

    public static func json(_ statuses: [DomainStatus]) -> String {
        let formatter = ISO8601DateFormatter()
        let document = Document(domains: statuses.map {
            Entry(host: $0.host, state: $0.state.statusWord, lastCheck: $0.lastCheck.map(formatter.string(from:)),
                  version: $0.version, openAlerts: $0.openAlerts, reason: $0.reason)
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
        var lines = [pad("HOST", hostWidth) + "  " + pad("STATE", 13) + "  " + pad("LAST CHECK", 12) + "  "
                     + pad("VERSION", 12) + "  OPEN ALERTS"]
        for status in statuses {
            let last = status.lastCheck.map { age(now.timeIntervalSince($0)) + " ago" } ?? "-"
            let version = status.version.map { String($0.prefix(12)) } ?? "-"
            let alerts = status.openAlerts.isEmpty ? "-" : status.openAlerts.joined(separator: ", ")
            lines.append(pad(status.host, hostWidth) + "  " + pad(status.state.statusWord, 13) + "  " + pad(last, 12)
                         + "  " + pad(version, 12) + "  " + alerts)
            // A domain in trouble says why on the next line, under its state.
            if status.state == .failing || status.state == .warning, let reason = status.reason {
                lines.append(String(repeating: " ", count: hostWidth + 2) + "↳ " + reason)
            }
        }
        return lines
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
