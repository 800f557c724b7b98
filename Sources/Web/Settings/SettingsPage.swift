import Notify
import Store
/// One section of the settings: its own URL, with what that section shows and its forms.
public enum SettingsSection: String, Sendable, CaseIterable {
    case general, users, channels, alerts

    /// Each section's page; general is /settings itself, so old links land on it.
    public var path: String { self == .general ? "/settings" : "/settings/" + rawValue }

    public var title: String {
        switch self {
        case .general: "General"
        case .users: "Users and tokens"
        case .channels: "Channels"
        case .alerts: "Alert defaults"
        }
    }
}

/// The settings section shown: general (interval, email and links), users and API tokens, channels,
/// alert defaults. A handler fills in only what its section shows.
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

    public var section = SettingsSection.general

    public init(now: Int64, section: SettingsSection = .general) {
        self.now = now
        self.section = section
    }
}

public enum SettingsPage {
    public static func render(_ m: SettingsModel, viewer: Viewer, flash: Flash? = nil) -> HTML {
        let body: HTML
        switch m.section {
        case .general: body = general(m, viewer: viewer)
        case .users: body = usersAndTokens(m, viewer: viewer)
        case .channels: body = channels(m, viewer: viewer)
        case .alerts: body = alertTuningForm(m, csrf: Layout.csrfField(viewer.csrf), change: viewer.canChange, err: errorText(m))
        }
        let title: HTML = m.section == .general ? "Settings" : "Settings: \(m.section.title)"
        return Layout.page(title: m.section == .general ? "Settings" : "\(m.section.title) · Settings", viewer: viewer,
                           active: .settings, flash: flash, body: """
            <div class="page-head"><h1>\(title)</h1><a class="button" href="/account/password">Change my password</a></div>\
            \(navigation(m.section))\(body)
            """)
    }

    /// The sections as links, the current one marked; they wrap onto more lines on a phone.
    static func navigation(_ current: SettingsSection) -> HTML {
        var links: HTML = .empty
        for section in SettingsSection.allCases {
            let mark: HTML = section == current ? " aria-current=\"page\"" : .empty
            links.append("<a href=\"\(section.path)\"\(mark)>\(section.title)</a>")
        }
        return "<nav class=\"section-nav\" aria-label=\"Settings sections\">\(links)</nav>"
    }

    /// A field's problem under it, for the forms of every section.
    static func errorText(_ m: SettingsModel) -> (String) -> HTML {
        { f in m.errors[f].map { "<p class=\"error-text\">\($0)</p>" } ?? .empty }
    }

    /// How often new domains are checked, and the mail server and links of email alerts.
    static func general(_ m: SettingsModel, viewer: Viewer) -> HTML {
        let csrf = Layout.csrfField(viewer.csrf)
        var intervals: HTML = .empty
        for (minutes, label) in RegisterFormModel.intervals {
            let sel: HTML = minutes == m.defaultIntervalMinutes ? " selected" : ""
            intervals.append("<option value=\"\(minutes)\"\(sel)>\(label)</option>")
        }
        let defaults: HTML = viewer.canChange ? """
            <form method="post" action="/settings/defaults" class="filters">\(csrf)<label for="default-interval" class="inline">New domains are checked</label>\
            <select id="default-interval" name="interval">\(intervals)</select><button type="submit">Save</button></form>
            """ : "<p>New domains are checked \(DomainPage.intervalLabel(m.defaultIntervalMinutes)).</p>"
        return """
            <section id="defaults"><h2>Checks</h2><div class="card">\(defaults)</div></section>\
            \(emailForm(m, csrf: csrf, change: viewer.canChange, err: errorText(m)))
            """
    }

    /// The failure and success thresholds and the retry interval; read-only users see them in words.
    static func alertTuningForm(_ m: SettingsModel, csrf: HTML, change: Bool, err: (String) -> HTML) -> HTML {
        let t = m.alertTuning
        guard change else {
            return "<div class=\"card\" id=\"alerting\"><h2>Alerting</h2><p>A new failure is checked again to confirm it: \(t.sentence).</p></div>"
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
            <form method="post" action="/settings/alerts" class="card" id="alerting">\(csrf)<h2>Alerting</h2>\
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
