import Notify
import Store

/// The fields of a channel, shared by the settings page's "Add a channel" form and the edit page:
/// what each kind asks for, its routing (minimum severity, domains, apps), and, on the edit page,
/// what is kept when left empty. A credential is never sent back into a form.
struct ChannelForm: Sendable {
    struct AppChoice: Sendable {
        var id: Int64
        var name: String
    }

    /// Typed values (or, editing, the channel's own), by field name; never the credential.
    var values: [String: String] = [:]
    var errors: [String: String] = [:]
    var apps: [AppChoice] = []
    var checkedApps: Set<Int64> = []
    /// The channel being edited; nil on the add form.
    var editing: ChannelRecord?

    func fields(csrf: HTML) -> HTML {
        func err(_ f: String) -> HTML { errors[f].map { "<p class=\"error-text\">\($0)</p>" } ?? .empty }
        func value(_ f: String) -> String { values[f] ?? "" }
        func invalid(_ f: String) -> HTML { errors[f] == nil ? .empty : " aria-invalid=\"true\"" }
        var out: HTML = csrf
        out.append("<label for=\"channel-name\">Name <span class=\"hint\">— to recognise it by, and its identity in config files</span></label>")
        out.append("<input type=\"text\" id=\"channel-name\" name=\"name\" value=\"\(value("name"))\"\(invalid("name"))>\(err("name"))")
        if let channel = editing {
            out.append("<p>Kind: <strong>\(channel.kind.displayName)</strong> <span class=\"hint\">— a channel's kind cannot change</span></p>")
            out.append("<input type=\"hidden\" name=\"kind\" value=\"\(channel.kind.rawValue)\">")
        } else {
            var kinds: HTML = .empty
            let chosen = value("kind").isEmpty ? "email" : value("kind")
            for kind in ChannelKind.allCases {
                kinds.append("<option value=\"\(kind.rawValue)\"\(chosen == kind.rawValue ? " selected" : "")>\(kind.displayName)</option>")
            }
            out.append("<label for=\"kind\">Kind</label><select id=\"kind\" name=\"kind\">\(kinds)</select>\(err("kind"))")
        }
        let kind = editing?.kind
        if kind != nil || editing == nil {
            out.append("<label for=\"target\">Email address or URL</label>")
            let hidden = editing?.targetIsHidden == true
            let keptHint: HTML = hidden ? " placeholder=\"unchanged: \(editing.map { $0.shownTarget(toAdmin: true) } ?? "")\"" : .empty
            out.append("<input type=\"text\" id=\"target\" name=\"target\" value=\"\(value("target"))\"\(keptHint)\(invalid("target"))>\(err("target"))")
            if hidden {
                out.append("<p class=\"hint\">This URL is a credential (or read from the environment by a config file), so it is not shown: "
                           + "leave the field empty to keep it, or paste a new one.</p>")
            } else if kind == nil || kind?.inputs.hasProviderEndpoint == true {
                out.append("<p class=\"hint\">PagerDuty, Opsgenie and Telegram: leave it empty for the provider's own API, or give its EU region's.</p>")
            }
        }
        if editing == nil || kind?.inputs.credential != nil || kind?.inputs.generatesSigningSecret == true {
            let label: String = kind.map { $0.inputs.credential.map { "The \($0)" } ?? "Signing secret" }
                ?? "Routing key, API key, bot token or access token"
            out.append("<label for=\"credential\">\(label)</label>")
            // "new-password", not "off": browsers fill a saved password into a password field marked
            // "off" (and axe-core 3 calls "off" inappropriate there); a key is never one of them.
            out.append("<input type=\"password\" id=\"credential\" name=\"credential\" autocomplete=\"new-password\" value=\"\"\(invalid("credential"))>\(err("credential"))")
            out.append(editing == nil ? "<p class=\"hint\">Stored and used, never shown again.</p>"
                : "<p class=\"hint\">Not shown: leave it empty to keep the stored one.</p>")
        }
        if editing == nil || kind?.inputs.recipient != nil {
            out.append("<label for=\"recipient\">Telegram chat id</label><input type=\"text\" id=\"recipient\" name=\"recipient\" value=\"\(value("recipient"))\"\(invalid("recipient"))>\(err("recipient"))")
        }
        if editing == nil || kind?.inputs.needsTemplate == true {
            out.append("<label for=\"template\">Custom webhook: the JSON body as a Mustache template</label>")
            out.append("<textarea id=\"template\" name=\"template\" rows=\"4\"\(invalid("template"))>\(value("template"))</textarea>\(err("template"))")
            out.append("""
                <p class="hint">For example <code>{"text": "{{summary}}", "severity": "{{severity}}", "findings": {{findings_json}}}</code>: \
                values are JSON-escaped, so keep them inside quotes; the README lists every placeholder.</p>
                """)
        }
        out.append(routing(err: err, value: value))
        if editing != nil {
            let checked: HTML = value("enabled") == "1" ? " checked" : .empty
            out.append("<label class=\"inline\"><input type=\"checkbox\" name=\"enabled\" value=\"1\"\(checked)> Enabled</label>")
        }
        return out
    }

    /// Which events: the minimum severity, and the domains and apps whose events the channel takes.
    private func routing(err: (String) -> HTML, value: (String) -> String) -> HTML {
        var severities: HTML = .empty
        let chosen = value("min_severity").isEmpty ? "info" : value("min_severity")
        for (severity, label) in [("info", "Everything (info and up)"), ("warning", "Warnings and critical"), ("critical", "Critical only")] {
            severities.append("<option value=\"\(severity)\"\(chosen == severity ? " selected" : "")>\(label)</option>")
        }
        var out: HTML = "<fieldset><legend>Routing</legend>"
        out.append("<label for=\"min-severity\">Send</label><select id=\"min-severity\" name=\"min_severity\">\(severities)</select>\(err("min_severity"))")
        out.append("<label for=\"channel-domains\">Only these domains <span class=\"hint\">— one host per line; empty: every domain (unless apps are chosen)</span></label>")
        out.append("<textarea id=\"channel-domains\" name=\"domains\" rows=\"2\">\(value("domains"))</textarea>\(err("domains"))")
        if !apps.isEmpty {
            out.append("<p>Also the domains of these apps:</p>")
            for app in apps {
                let checked: HTML = checkedApps.contains(app.id) ? " checked" : .empty
                out.append("<label class=\"inline\"><input type=\"checkbox\" name=\"app\" value=\"\(app.id)\"\(checked)> \(app.name)</label> ")
            }
            out.append(err("app"))
        }
        out.append("</fieldset>")
        return out
    }
}
