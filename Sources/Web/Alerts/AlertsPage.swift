/// Open and resolved incidents, and what each channel delivered.
public struct AlertsModel: Sendable {
    public struct Incident: Sendable {
        public var id: Int64
        public var domainID: Int64
        public var host: String
        public var rule: String
        public var message: String
        public var opened: Int64
        public var resolved: Int64?
        /// The apps that claim the domain.
        public var apps: [String] = []
    }

    public struct Delivery: Sendable {
        public var time: Int64
        /// The event's lines: its headline, then one line per difference (a new file's changes).
        public var event: [String]
        public var attempts: Int
        public var delivered: Bool
        public var lastError: String?
    }

    public struct ChannelLog: Sendable {
        public var channelID: Int64
        public var name: String
        public var deliveries: [Delivery]
    }

    public var open: [Incident] = []
    public var resolved: [Incident] = []
    public var channels: [ChannelLog] = []
    public var now: Int64
    public init(now: Int64) { self.now = now }
}

public enum AlertsPage {
    public static func render(_ m: AlertsModel, viewer: Viewer, flash: Flash? = nil) -> HTML {
        func table(_ rows: [AlertsModel.Incident], resolved: Bool) -> HTML {
            guard !rows.isEmpty else {
                return "<p class=\"muted\">\(resolved ? "Nothing resolved yet." : "No open alerts. Everything you watch is as expected.")</p>"
            }
            var body: HTML = .empty
            for r in rows {
                let when: HTML = resolved ? "<td data-label=\"Resolved\">\(r.resolved.map { DisplayTime.dateTime($0) } ?? "")</td>" : .empty
                body.append("<tr><td class=\"host\"><a href=\"/domains/\(r.domainID)\">\(r.host)</a>\(r.apps.isEmpty ? HTML.empty : "<span class=\"reason\">Apps: \(r.apps.joined(separator: ", "))</span>" as HTML)</td><td data-label=\"Rule\"><code>\(r.rule)</code></td><td data-label=\"What\">\(r.message)</td><td data-label=\"Opened\">\(DisplayTime.ago(r.opened, now: m.now))</td>\(when)</tr>")
            }
            let extra: HTML = resolved ? "<th>Resolved</th>" : .empty
            return "<div class=\"table-wrap stack\"><table><thead><tr><th>Domain</th><th>Rule</th><th>What</th><th>Opened</th>\(extra)</tr></thead><tbody>\(body)</tbody></table></div>"
        }
        var channels: HTML = .empty
        for c in m.channels {
            var rows: HTML = .empty
            for d in c.deliveries {
                let state: HTML = d.delivered ? "<span class=\"pill state-passing\">delivered</span>" : "<span class=\"pill state-warning\">pending</span>"
                rows.append("<tr><td data-label=\"When\">\(DisplayTime.dateTime(d.time))</td><td data-label=\"Event\">\(HTML(lines: d.event))</td><td data-label=\"State\">\(state)</td><td data-label=\"Attempts\">\(d.attempts)</td><td class=\"muted\" data-label=\"Last error\">\(HTML(multiline: d.lastError ?? ""))</td></tr>")
            }
            let test: HTML = viewer.canChange
                ? "<form method=\"post\" action=\"/channels/\(c.channelID)/test\" class=\"inline\">\(Layout.csrfField(viewer.csrf))<button type=\"submit\">Send test notification</button></form>"
                : .empty
            let table: HTML = c.deliveries.isEmpty ? "<p class=\"muted\">Nothing sent yet.</p>"
                : "<div class=\"table-wrap stack\"><table><thead><tr><th>When</th><th>Event</th><th>State</th><th>Attempts</th><th>Last error</th></tr></thead><tbody>\(rows)</tbody></table></div>"
            channels.append("<div class=\"card\"><div class=\"page-head\"><h3>\(c.name)</h3>\(test)</div>\(table)</div>")
        }
        if m.channels.isEmpty {
            channels = "<p class=\"muted\">No notification channels. Add one under <a href=\"/settings/channels\">Settings → Channels</a>.</p>"
        }
        return Layout.page(title: "Alerts", viewer: viewer, active: .alerts, flash: flash, body: """
            <h1>Alerts</h1><h2>Open</h2>\(table(m.open, resolved: false))<h2>Resolved</h2>\(table(m.resolved, resolved: true))\
            <h2>Deliveries per channel</h2>\(channels)
            """)
    }
}

extension AlertsModel.Delivery {
    /// An event as lines to show: its title, then its differences one per line. A new-version
    /// notice's title carries the differences joined by "; " (a title is one line wherever it goes:
    /// a mail subject, a chat header); here, where there is room, they are lines of their own again.
    static func lines(title: String, differences: [String]) -> [String] {
        guard !differences.isEmpty else { return [title] }
        let joined = " " + differences.joined(separator: "; ")
        let headline = title.hasSuffix(joined) ? String(title.dropLast(joined.count)) : title
        return [headline] + differences
    }
}
