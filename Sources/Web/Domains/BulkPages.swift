import Registry
import Store

/// The pages of the overview's bulk actions and of the browser import: each asks before it writes.
enum BulkPages {
    /// The action as the overview's menu names it.
    static func label(_ a: BulkAction) -> String {
        switch a {
        case .checkNow: "Check now"
        case .pause: "Pause"
        case .resume: "Resume"
        case .setInterval: "Set the interval"
        case .delete: "Delete"
        }
    }

    /// "37 domains", "1 domain".
    static func domains(_ n: Int) -> String { "\(n) domain\(n == 1 ? "" : "s")" }

    /// "Delete 37 domains?": the action, the count, what it does, and a form that repeats the choice
    /// (ids, or the filter for all matching) with the CSRF token. Works without JavaScript.
    static func confirm(_ action: BulkAction, count: Int, names: [String], intervalLabel: String?, carried: [(String, String)],
                        back: String, viewer: Viewer) -> HTML {
        let question = "\(action.verb) \(domains(count))\(intervalLabel.map { " to " + $0 } ?? "")?"
        let effect: String = switch action {
        case .checkNow: "Each is checked within seconds, ahead of routine checks. Paused domains are left alone."
        case .pause: "No checks and no alert changes until they are resumed; an open alert stays open."
        case .resume: "Each is due at once, and then checked at its interval."
        case .setInterval: "Each is next checked within one new interval at the latest."
        case .delete: "This removes the domains, their checks, versions and alerts. It cannot be undone."
        }
        var hidden: HTML = .empty
        for (name, value) in carried { hidden.append("<input type=\"hidden\" name=\"\(name)\" value=\"\(value)\">") }
        let button: HTML = action == .delete ? "<button type=\"submit\" class=\"danger\">\(String(question.dropLast()))</button>"
            : "<button type=\"submit\" class=\"primary\">\(String(question.dropLast()))</button>"
        var listed: HTML = .empty
        for name in names { listed.append("<li>\(name)</li>") }
        let more: HTML = count > names.count ? "<p class=\"muted\">and \(count - names.count) more.</p>" : .empty
        return Layout.page(title: question, viewer: viewer, active: .overview, body: """
            <h1>\(question)</h1><div class="card"><p>\(effect)</p><ul class="selected-domains">\(listed)</ul>\(more)\
            <form method="post" action="/domains/bulk">\(Layout.csrfField(viewer.csrf))\(hidden)\(button) \
            <a class="button" href="\(back)">Cancel</a></form></div>
            """)
    }

    /// The import form: paste a list or upload a file, then preview.
    static func importForm(viewer: Viewer, text: String = "", problem: String? = nil) -> HTML {
        let error: HTML = problem.map { "<p class=\"error-text\" role=\"alert\">\($0)</p>" } ?? .empty
        return Layout.page(title: "Import domains", viewer: viewer, active: .overview, body: """
            <h1>Import domains</h1><div class="card">\
            <p>One host per line, or CSV: the host first, then app IDs (<code>TEAMID.bundle.id</code> or \
            <code>service:TEAMID.bundle.id</code>), <code>android:PACKAGE=FINGERPRINT</code> and <code>url:URL EXPECT</code> columns. \
            The CSV export reads back. You see what would be registered before anything is.</p>\(error)\
            <form method="post" action="/domains/import/preview" enctype="multipart/form-data">\(Layout.csrfField(viewer.csrf))\
            <label for="list">Paste a list</label>\
            <textarea id="list" name="list" rows="10" spellcheck="false">\(text)</textarea>\
            <label for="file">or upload a file (up to 800 KB; larger lists: <code>aasa-monitor import</code>)</label>\
            <input id="file" type="file" name="file" accept=".csv,.txt,text/csv,text/plain">\
            <div class="actions"><button type="submit" class="primary">Preview</button>\
            <a class="button" href="/">Cancel</a></div></form></div>
            """)
    }

    /// The most lines the preview lists; the counts cover them all.
    static let previewLines = 1_000

    /// What the import would do, line by line, and the form that does it: the list travels as a
    /// hidden field, so the confirmation registers exactly the list that was previewed.
    static func importPreview(_ p: ImportPreview, text: String, viewer: Viewer) -> HTML {
        var rows: HTML = .empty
        for line in p.lines.prefix(previewLines) {
            let outcome: HTML = switch line.outcome {
            case .new: "<span class=\"pill state-passing\">New</span>"
            case .registered: "<span class=\"pill state-never\">Registered already</span>"
            case .listedAbove(let first): "<span class=\"pill state-never\">Listed on line \(first)</span>"
            case .refused(let why): "<span class=\"pill state-failing\">Refused</span> \(why)"
            }
            rows.append("<tr><td data-label=\"Line\">\(line.line)</td><td class=\"host\" data-label=\"Domain\">\(line.text)</td>"
                        + "<td data-label=\"Outcome\">\(outcome)</td></tr>")
        }
        let more: HTML = p.lines.count > previewLines
            ? "<p class=\"muted\">The first \(previewLines) of \(p.lines.count) lines are listed; the counts cover them all.</p>" : .empty
        let confirm: HTML = p.new > 0 ? """
            <form method="post" action="/domains/import" enctype="multipart/form-data">\(Layout.csrfField(viewer.csrf))\
            <input type="hidden" name="list" value="\(text)">\
            <button type="submit" class="primary">Register \(domains(p.new))</button> \
            <a class="button" href="/domains/import">Start over</a></form>
            """ : "<p>Nothing new to register. <a class=\"button\" href=\"/domains/import\">Start over</a></p>"
        let table: HTML = p.lines.isEmpty ? "<div class=\"card empty\">The list holds no domain.</div>" : """
            <div class="table-wrap stack"><table><thead><tr><th>Line</th><th>Domain</th><th>Outcome</th></tr></thead>\
            <tbody>\(rows)</tbody></table></div>\(more)
            """
        return Layout.page(title: "Import preview", viewer: viewer, active: .overview, body: """
            <h1>Import preview</h1><div class="card" role="status"><p>\(p.new) new, \(p.registered) registered already, \
            \(p.refused) refused. Nothing is written until you confirm.</p>\(confirm)</div>\(table)
            """)
    }
}
