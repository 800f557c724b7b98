import Notify
import Store

/// The fields of one kind of channel, shared by the add page (`/channels/new?kind=…`) and the edit
/// page: only what that kind asks for (`ChannelKind.inputs`), its routing (minimum severity, domains,
/// apps), and, on the edit page, what is kept when left empty. A credential is never sent back into a form.
struct ChannelForm: Sendable {
    struct AppChoice: Sendable {
        var id: Int64
        var name: String
    }

    var kind: ChannelKind
    /// Typed values (or, editing, the channel's own), by field name; never the credential.
    var values: [String: String] = [:]
    var errors: [String: String] = [:]
    var apps: [AppChoice] = []
    var checkedApps: Set<Int64> = []
    /// The channel being edited; nil on the add form.
    var editing: ChannelRecord?

    private func err(_ f: String) -> HTML { errors[f].map { "<p class=\"error-text\">\($0)</p>" } ?? .empty }
    private func value(_ f: String) -> String { values[f] ?? "" }
    private func invalid(_ f: String) -> HTML { errors[f] == nil ? .empty : " aria-invalid=\"true\"" }

    func fields(csrf: HTML) -> HTML {
        var out: HTML = csrf
        // The kind travels with the form, so a refused form comes back as the same kind's.
        out.append("<input type=\"hidden\" name=\"kind\" value=\"\(kind.rawValue)\">")
        let change: HTML = editing == nil ? " <a href=\"/channels/new\">Choose another kind</a>"
            : " <span class=\"hint\">— a channel's kind cannot change</span>"
        out.append("<p>Kind: <strong>\(kind.displayName)</strong>\(change)</p>\(err("kind"))")
        out.append("<label for=\"channel-name\">Name <span class=\"hint\">— to recognise it by, and its identity in config files</span></label>")
        out.append("<input type=\"text\" id=\"channel-name\" name=\"name\" value=\"\(value("name"))\"\(invalid("name"))>\(err("name"))")
        out.append(target())
        out.append(credential())
        if let recipient = kind.inputs.recipient {
            out.append("<label for=\"recipient\">\(recipient.prefix(1).uppercased() + recipient.dropFirst())</label>")
            out.append("<input type=\"text\" id=\"recipient\" name=\"recipient\" value=\"\(value("recipient"))\"\(invalid("recipient"))>\(err("recipient"))")
        }
        if kind.inputs.needsTemplate {
            out.append("<label for=\"template\">The JSON body as a Mustache template</label>")
            out.append("<textarea id=\"template\" name=\"template\" rows=\"4\"\(invalid("template"))>\(value("template"))</textarea>\(err("template"))")
            out.append("""
                <p class="hint">For example <code>{"text": "{{summary}}", "severity": "{{severity}}", "findings": {{findings_json}}}</code>: \
                values are JSON-escaped, so keep them inside quotes; docs/channels.md lists every placeholder.</p>
                """)
        }
        out.append(routing())
        if editing != nil {
            let checked: HTML = value("enabled") == "1" ? " checked" : .empty
            out.append("<label class=\"inline\"><input type=\"checkbox\" name=\"enabled\" value=\"1\"\(checked)> Enabled</label>")
        }
        return out
    }

    /// The address, URL or provider endpoint, labelled for what this kind takes.
    private func target() -> HTML {
        var label: HTML = "URL", hint: HTML = .empty
        let placeholder: String
        switch kind.inputs.target {
        case .emailAddress:
            label = "Email address"
            placeholder = "alerts@example.com"
        case .url(let example):
            placeholder = example
        case .endpoint(let standard, let alternatives):
            label = "API address <span class=\"hint\">— optional</span>"
            placeholder = standard
            hint = "<p class=\"hint\">Leave it empty for \(standard), or give another (\(alternatives)).</p>"
        }
        let hidden = editing?.targetIsHidden == true
        let shownPlaceholder = hidden ? "unchanged: " + (editing.map { $0.shownTarget(toAdmin: true) } ?? "") : placeholder
        let mode: HTML = kind.inputs.target == .emailAddress ? " inputmode=\"email\" autocomplete=\"off\"" : " inputmode=\"url\" autocomplete=\"off\""
        var out: HTML = "<label for=\"target\">\(label)</label>"
        out.append("<input type=\"text\" id=\"target\" name=\"target\" value=\"\(value("target"))\" placeholder=\"\(shownPlaceholder)\"\(mode)\(invalid("target"))>\(err("target"))")
        if hidden {
            out.append("<p class=\"hint\">This URL is a credential (or read from the environment by a config file), so it is not shown: "
                       + "leave the field empty to keep it, or paste a new one.</p>")
        } else {
            out.append(hint)
        }
        return out
    }

    /// The kind's key or token, or the webhook's signing secret; never filled in.
    private func credential() -> HTML {
        let inputs = kind.inputs
        let label: String
        let hint: String
        if let name = inputs.credential {
            label = name.prefix(1).uppercased() + name.dropFirst()
            let optional = inputs.credentialRequired ? "" : " Optional."
            hint = editing == nil ? "Stored and used, never shown again.\(optional)" : "Not shown: leave it empty to keep the stored one."
        } else if inputs.generatesSigningSecret {
            label = "Signing secret"
            hint = editing == nil ? "Optional: leave it empty and one is made and shown once."
                : "Not shown: leave it empty to keep the stored one."
        } else {
            return .empty
        }
        // "new-password", not "off": browsers fill a saved password into a password field marked
        // "off" (and axe-core 3 calls "off" inappropriate there); a key is never one of them.
        return """
            <label for="credential">\(label)</label>\
            <input type="password" id="credential" name="credential" autocomplete="new-password" value=""\(invalid("credential"))>\(err("credential"))\
            <p class="hint">\(hint)</p>
            """
    }

    /// Which events: the minimum severity, and the domains and apps whose events the channel takes.
    private func routing() -> HTML {
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
