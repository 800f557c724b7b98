import Notify
import Store
/// Channels, users, API tokens and defaults.
public struct SettingsModel: Sendable {
    public struct ChannelRow: Sendable {
        /// A test notification sent by this request, with the provider's answer.
        public struct TestResult: Sendable {
            public var delivered: Bool
            public var summary: String
        }

        public var id: Int64
        public var kind: String
        public var name = ""
        public var target: String
        /// Which events: "warning and critical · shop.example · app Shop".
        public var routing = ""
        public var enabled: Bool
        /// The latest delivery in words: "delivered", "retrying: …", "gave up: PagerDuty refused …".
        public var lastDelivery: String = ""
        public var test: TestResult?
    }

    /// Whether webhooks and providers may be on this machine or a private network, and whether the
    /// environment (AASA_MONITOR_ALLOW_PRIVATE_WEBHOOKS=1) decides it instead of the page.
    public var allowPrivateReceivers = false
    public var privateReceiversFromEnvironment = false

    public struct UserRow: Sendable {
        public var id: Int64
        public var email: String
        public var role: Role
        public var created: Int64
    }

    public struct TokenRow: Sendable {
        public var id: Int64
        public var name: String
        public var created: Int64
        public var lastUsed: Int64?
    }

    /// What the notifier reads from the settings table (the SMTP password shown as ***).
    public struct EmailView: Sendable {
        public var smtpURL = ""
        public var smtpFrom = ""
        /// `when-offered` or `required`.
        public var startTLS = "when-offered"
        public var caFile = ""
        public var baseURL = ""
        /// Environment variables of this server that take precedence over the stored values.
        public var environmentOverrides: [String] = []
    }

    public var channels: [ChannelRow] = []
    /// The apps a new channel can be routed to.
    var channelApps: [ChannelForm.AppChoice] = []
    public var email = EmailView()
    public var users: [UserRow] = []
    public var tokens: [TokenRow] = []
    public var defaultIntervalMinutes = 60
    /// When alerts open and resolve, and how soon a change is confirmed.
    public var alertTuning = AlertTuning.defaults
    /// Shown once, right after creation.
    public var newToken: String?
    public var errors: [String: String] = [:]
    public var values: [String: String] = [:]
    public var now: Int64

    public init(now: Int64) { self.now = now }
}

public enum SettingsPage {
    public static func render(_ m: SettingsModel, viewer: Viewer, flash: Flash? = nil) -> HTML {
        func err(_ f: String) -> HTML { m.errors[f].map { "<p class=\"error-text\">\($0)</p>" } ?? .empty }
        func value(_ f: String) -> String { m.values[f] ?? "" }
        let csrf = Layout.csrfField(viewer.csrf)
        let change = viewer.canChange

        var channels: HTML = .empty
        for c in m.channels {
            let remove: HTML = change
                ? "<form method=\"post\" action=\"/channels/\(c.id)/delete\" class=\"inline\" data-confirm=\"Remove this channel?\">\(csrf)<button type=\"submit\" class=\"link\">Remove</button></form>"
                : .empty
            let test: HTML = change
                ? "<form method=\"post\" action=\"/channels/\(c.id)/test#channel-\(c.id)\" class=\"inline\">\(csrf)<button type=\"submit\" class=\"link\">Send test</button></form>"
                : .empty
            let edit: HTML = change ? "<a href=\"/channels/\(c.id)/edit\">Edit</a> " : .empty
            let name: HTML = c.name.isEmpty ? .empty : "<strong>\(c.name)</strong><br>"
            channels.append("<tr id=\"channel-\(c.id)\"><td>\(name)\(c.kind)</td><td class=\"mono\">\(c.target)</td><td>\(c.routing)</td><td>\(c.enabled ? "enabled" : "disabled")</td><td>\(c.lastDelivery)</td><td class=\"actions\">\(edit)\(test)\(remove)</td></tr>")
            if let result = c.test {
                // Right under the channel, where the button was pressed; role=status reads it out.
                channels.append("<tr class=\"test-result\"><td colspan=\"6\"><p role=\"status\" class=\"flash \(result.delivered ? "flash-success" : "flash-error")\">Test notification: \(result.summary)</p></td></tr>")
            }
        }
        let channelTable: HTML = m.channels.isEmpty ? "<p class=\"muted\">No channels yet: alerts are only shown here.</p>"
            : "<div class=\"table-wrap\"><table><thead><tr><th>Channel</th><th>Target</th><th>Sends</th><th>State</th><th>Last delivery</th><th></th></tr></thead><tbody>\(channels)</tbody></table></div>"
        var kindHelp: HTML = .empty
        for kind in ChannelKind.allCases {
            kindHelp.append("<li><strong>\(kind.displayName)</strong>: \(kind.inputs.help)</li>")
        }
        let addForm = ChannelForm(values: m.values, errors: m.errors, apps: m.channelApps,
                                  checkedApps: Set((m.values["app"] ?? "").split(separator: ",").compactMap { Int64($0) }))
        let channelForm: HTML = change ? """
            <form method="post" action="/channels" class="card"><h3>Add a channel</h3>\(addForm.fields(csrf: csrf))\
            <details><summary>What each kind needs</summary><ul>\(kindHelp)</ul></details>\
            <p><button type="submit" class="primary">Add channel</button></p></form>
            """ : .empty
        let privateForm: HTML
        let privateState: HTML = m.allowPrivateReceivers ? "allowed" : "refused"
        if m.privateReceiversFromEnvironment {
            privateForm = "<p>Private receivers are <strong>allowed</strong> by this server's environment (<code>AASA_MONITOR_ALLOW_PRIVATE_WEBHOOKS=1</code>); the environment decides, not this page.</p>"
        } else if change {
            privateForm = """
                <form method="post" action="/settings/private-receivers">\(csrf)<label class="inline"><input type="checkbox" name="allow" value="1"\
                \(m.allowPrivateReceivers ? " checked" : "")> Allow receivers on this machine or a private network</label> \
                <button type="submit">Save</button></form>
                """
        } else {
            privateForm = "<p>Private receivers are \(privateState).</p>"
        }
        let privateSection: HTML = """
            <div class="card" id="private-receivers"><h3>Private receivers</h3>\(privateForm)\
            <p class="hint">Channel URLs are typed by people, so by default the monitor refuses to send to loopback, private, \
            link-local and other internal addresses (a URL could otherwise reach this machine's own services or a cloud \
            metadata endpoint). Allow them when a receiver is deliberately internal: a bridge on this host, a compose service, \
            a self-hosted ntfy or Mattermost on the LAN. The SMTP server follows the same switch. \
            The environment variable <code>AASA_MONITOR_ALLOW_PRIVATE_WEBHOOKS=1</code> turns it on for the whole server.</p></div>
            """

        let emailSection = emailForm(m, csrf: csrf, change: change, err: err)

        var users: HTML = .empty
        for u in m.users {
            let remove: HTML = change && u.id != viewer.userID
                ? "<form method=\"post\" action=\"/users/\(u.id)/delete\" class=\"inline\" data-confirm=\"Remove this user?\">\(csrf)<button type=\"submit\" class=\"link\">Remove</button></form>"
                : .empty
            users.append("<tr><td>\(u.email)</td><td>\(u.role.label)</td><td>\(DisplayTime.date(u.created))</td><td>\(remove)</td></tr>")
        }
        // The values are Role's raw values, the ones createUser reads back; read-only first, the safer default.
        var roleOptions: HTML = .empty
        for role in [Role.readOnly, .admin] {
            let sel: HTML = value("role") == role.rawValue ? " selected" : .empty
            roleOptions.append("<option value=\"\(role.rawValue)\"\(sel)>\(role.label)</option>")
        }
        let userForm: HTML = change ? """
            <form method="post" action="/users" class="card">\(csrf)<h3>Add a user</h3>\
            <label for="user-email">Email</label><input type="email" id="user-email" name="email" value="\(value("email"))">\(err("email"))\
            <label for="user-password">Password <span class="hint">— at least 10 characters</span></label>\
            <input type="password" id="user-password" name="password" autocomplete="new-password">\(err("password"))\
            <label for="role">Role</label><select id="role" name="role">\(roleOptions)</select>\(err("role"))\
            <p><button type="submit" class="primary">Add user</button></p></form>
            """ : .empty

        var tokens: HTML = .empty
        for t in m.tokens {
            let revoke: HTML = change
                ? "<form method=\"post\" action=\"/tokens/\(t.id)/delete\" class=\"inline\" data-confirm=\"Revoke this token? Scripts using it stop working.\">\(csrf)<button type=\"submit\" class=\"link\">Revoke</button></form>"
                : .empty
            tokens.append("<tr><td>\(t.name)</td><td>\(DisplayTime.date(t.created))</td><td>\(t.lastUsed.map { DisplayTime.ago($0, now: m.now) } ?? "never")</td><td>\(revoke)</td></tr>")
        }
        let newToken: HTML = m.newToken.map {
            "<div class=\"flash flash-success\">New token (shown once, copy it now): <code class=\"mono\">\($0)</code></div>"
        } ?? .empty
        let tokenForm: HTML = change ? """
            <form method="post" action="/tokens" class="filters">\(csrf)<input type="text" name="name" placeholder="Token name, e.g. ci" aria-label="Token name" value="\(value("name"))">\
            <button type="submit">Create token</button></form>\(err("name"))
            """ : .empty

        let tokenTable: HTML = m.tokens.isEmpty ? "<p class=\"muted\">No tokens.</p>"
            : "<div class=\"table-wrap\"><table><thead><tr><th>Name</th><th>Created</th><th>Last used</th><th></th></tr></thead><tbody>\(tokens)</tbody></table></div>"
        var intervals: HTML = .empty
        for (minutes, label) in RegisterFormModel.intervals {
            let sel: HTML = minutes == m.defaultIntervalMinutes ? " selected" : ""
            intervals.append("<option value=\"\(minutes)\"\(sel)>\(label)</option>")
        }
        let defaults: HTML = change ? """
            <form method="post" action="/settings/defaults" class="filters">\(csrf)<label for="default-interval" class="inline">New domains are checked</label>\
            <select id="default-interval" name="interval">\(intervals)</select><button type="submit">Save</button></form>
            """ : "<p>New domains are checked \(DomainPage.intervalLabel(m.defaultIntervalMinutes)).</p>"

        let alerts = alertTuningForm(m, csrf: csrf, change: change, err: err)

        return Layout.page(title: "Settings", viewer: viewer, active: .settings, flash: flash, body: """
            <div class="page-head"><h1>Settings</h1><a class="button" href="/account/password">Change my password</a></div>
            <section><h2>Notification channels</h2>\(channelTable)\(channelForm)\(privateSection)</section>
            \(emailSection)
            <section><h2>Users</h2><div class="table-wrap"><table><thead><tr><th>Email</th><th>Role</th><th>Since</th><th></th></tr></thead>\
            <tbody>\(users)</tbody></table></div>\(userForm)</section>
            <section><h2>API tokens</h2><p class="muted">For scripts: <code>Authorization: Bearer TOKEN</code> on <code>/api/v1</code>.</p>\(newToken)\
            \(tokenTable)\(tokenForm)</section>
            <section><h2>Defaults</h2><div class="card">\(defaults)</div>\(alerts)</section>
            """)
    }

    /// The failure and success thresholds and the retry interval; read-only users see them in words.
    static func alertTuningForm(_ m: SettingsModel, csrf: HTML, change: Bool, err: (String) -> HTML) -> HTML {
        let t = m.alertTuning
        guard change else {
            return "<div class=\"card\" id=\"alerting\"><h3>Alerting</h3><p>A new failure is checked again to confirm it: \(t.sentence).</p></div>"
        }
        func field(_ name: String, _ label: String, _ value: Int, _ range: ClosedRange<Int>) -> HTML {
            let shown = m.values[name] ?? String(value)
            let invalid: HTML = m.errors[name] == nil ? .empty : " aria-invalid=\"true\""
            let id = name.replacingOccurrences(of: "_", with: "-")
            return """
                <label for="\(id)">\(label)</label><input type="number" id="\(id)" name="\(name)" value="\(shown)" \
                min="\(range.lowerBound)" max="\(range.upperBound)" required\(invalid)>\(err(name))
                """
        }
        return """
            <form method="post" action="/settings/alerts" class="card" id="alerting">\(csrf)<h3>Alerting</h3>\
            <p class="hint">A check that starts failing is checked again after the retry interval (then twice as long, never \
            longer than the domain's interval) instead of a whole interval later, so the alert opens minutes after a break. \
            Apple's CDN and Google's API keep their own slower pace. Now: \(t.sentence).</p>\
            \(field("failure_threshold", "Failing checks in a row before an alert opens", t.failureThreshold, AlertTuning.thresholds))\
            \(field("success_threshold", "Passing checks in a row before it resolves", t.successThreshold, AlertTuning.thresholds))\
            \(field("retry_minutes", "Minutes before a confirming check", t.retryMinutes, AlertTuning.retryRange))\
            <p><button type="submit" class="primary">Save alerting</button></p></form>
            """
    }

    /// The SMTP server, sender and links of email alerts; read-only users see the values without the form.
    static func emailForm(_ m: SettingsModel, csrf: HTML, change: Bool, err: (String) -> HTML) -> HTML {
        let e = m.email
        let overrides: HTML = e.environmentOverrides.isEmpty ? .empty
            : "<p class=\"flash flash-info\">This server's environment sets \(e.environmentOverrides.joined(separator: ", ")); those values take precedence over the ones stored here.</p>"
        guard change else {
            let server: HTML = e.smtpURL.isEmpty ? "not configured" : "<code>\(e.smtpURL)</code> as <code>\(e.smtpFrom)</code>"
            let links: HTML = e.baseURL.isEmpty ? "the default address" : "<code>\(e.baseURL)</code>"
            return "<section id=\"email\"><h2>Email and links</h2>\(overrides)<div class=\"card\"><p>Mail server: \(server).</p><p>Links in messages point to \(links).</p></div></section>"
        }
        func field(_ name: String) -> HTML {
            m.errors[name] == nil ? .empty : " aria-invalid=\"true\""
        }
        var modes: HTML = .empty
        for (value, label) in [("when-offered", "Use STARTTLS when the server offers it"), ("required", "Require STARTTLS (refuse to send in the clear)")] {
            let selected: HTML = value == e.startTLS ? " selected" : .empty
            modes.append("<option value=\"\(value)\"\(selected)>\(label)</option>")
        }
        return """
            <section id="email"><h2>Email and links</h2>\(overrides)\
            <form method="post" action="/settings/email" class="card">\(csrf)\
            <p class="hint">Email channels send through this server. Leave the server and sender empty to turn email off.</p>\
            <label for="smtp-url">Mail server <span class="hint">— smtp://host:587 or smtps://host:465, with user:password@ if it needs a login</span></label>\
            <input type="text" id="smtp-url" name="smtp_url" value="\(e.smtpURL)" placeholder="smtp://mail.example.com:587" autocomplete="off"\(field("smtp_url"))>\(err("smtp_url"))\
            <label for="smtp-from">Sender address</label>\
            <input type="email" id="smtp-from" name="smtp_from" value="\(e.smtpFrom)" placeholder="alerts@example.com"\(field("smtp_from"))>\(err("smtp_from"))\
            <label for="smtp-starttls">Encryption</label><select id="smtp-starttls" name="smtp_starttls">\(modes)</select>\(err("smtp_starttls"))\
            <label for="smtp-ca-file">CA file <span class="hint">— optional: a PEM file on this server to trust instead of the system's CAs</span></label>\
            <input type="text" id="smtp-ca-file" name="smtp_ca_file" value="\(e.caFile)" placeholder="/etc/ssl/company-ca.pem"\(field("smtp_ca_file"))>\(err("smtp_ca_file"))\
            <label for="base-url">Dashboard address <span class="hint">— for the links in alert messages</span></label>\
            <input type="url" id="base-url" name="base_url" value="\(e.baseURL)" placeholder="https://aasa.example.com"\(field("base_url"))>\(err("base_url"))\
            <p><button type="submit" class="primary">Save email settings</button></p></form></section>
            """
    }
}
