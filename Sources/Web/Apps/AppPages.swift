import Foundation
import Monitor
import Registry
import Store
import Vocabulary

/// The apps' pages: the by-app overview, the form (typed fields and the app's own files), the
/// import preview, and the app page with its matrix.
enum AppPages {
    // MARK: by-app overview

    static func list(_ apps: [AppSummary], canChange: Bool, viewer: Viewer, flash: Flash?) -> HTML {
        let add: HTML = canChange ? "<a class=\"button primary\" href=\"/apps/new\">Add or import an app</a>" : .empty
        let head: HTML = """
            <div class="page-head"><h1>Apps</h1><div class="actions"><a class="button" href="/">By domain</a>\(add)</div></div>
            """
        guard !apps.isEmpty else {
            return Layout.page(title: "Apps", viewer: viewer, active: .apps, flash: flash, body: head
                + "<div class=\"card empty\">No apps yet. Import an app's entitlements file or AndroidManifest.xml to register all its domains in one step.</div>")
        }
        var rows: HTML = .empty
        for app in apps {
            let ids = (app.appleAppIDs + (app.androidPackage.map { [$0] } ?? [])).joined(separator: ", ")
            var states: [HTML] = []
            for s in DomainState.allCases where (app.states[s] ?? 0) > 0 {
                states.append("<span class=\"state-count\">\(app.states[s] ?? 0) \(s.pill)</span>")
            }
            let healthy = app.states[.passing] ?? 0
            let domains: HTML = "<span class=\"muted\">(\(app.domainCount) domain\(app.domainCount == 1 ? "" : "s"))</span>"
            let alerts: HTML = app.openAlerts > 0 ? "<a class=\"alert-count\" href=\"/apps/\(app.id)#alerts\">\(app.openAlerts)</a>" : "<span class=\"muted\">0</span>"
            rows.append("""
                <tr><td class="host"><a href="/apps/\(app.id)">\(app.name)</a><span class="reason mono">\(ids)</span></td>\
                <td data-label="Worst link">\((app.worstState ?? .never).pill)</td>\
                <td data-label="Links by state">\(healthy) of \(app.linkCount) links passing \(domains) \(states.joined(separator: " "))</td><td data-label="Open alerts">\(alerts)</td></tr>
                """)
        }
        let table: HTML = """
            <div class="table-wrap stack"><table><thead><tr><th>App</th><th>Worst link</th><th>Links by state</th><th>Open alerts</th></tr></thead>\
            <tbody>\(rows)</tbody></table></div>
            """
        return Layout.page(title: "Apps", viewer: viewer, active: .apps, flash: flash, body: head + table)
    }

    // MARK: form

    /// The new-app form, or with `editing` the app's edit form (filled from the stored app; the files
    /// add their entries to the typed ones).
    static func form(_ f: AppFormFields, editing: AppRecord? = nil, problems: [AppProblem] = [], viewer: Viewer) -> HTML {
        func errors(_ match: (AppField) -> Bool, id: String) -> HTML {
            let mine = problems.filter { match($0.field) }
            guard !mine.isEmpty else { return .empty }
            return "<ul class=\"error-text\" id=\"err-\(id)\">\(mine.map { "<li>\($0.description)</li>" as HTML })</ul>"
        }
        func described(_ match: (AppField) -> Bool, id: String) -> HTML {
            problems.contains { match($0.field) } ? " aria-invalid=\"true\" aria-describedby=\"err-\(id)\"" : .empty
        }
        func isApple(_ f: AppField) -> Bool { if case .appleAppID = f { true } else { false } }
        func isFingerprint(_ f: AppField) -> Bool { if case .fingerprint = f { true } else { false } }
        func isDomains(_ f: AppField) -> Bool { if case .appleDomains = f { true } else { false } }
        func isHost(_ f: AppField) -> Bool { if case .androidHost = f { true } else { false } }
        func isURL(_ f: AppField) -> Bool { if case .watchedURL = f { true } else { false } }
        func isAndroidURL(_ f: AppField) -> Bool { if case .androidWatchedURL = f { true } else { false } }
        func isEntitlements(_ f: AppField) -> Bool { if case .entitlementsFile = f { true } else { false } }
        func isManifest(_ f: AppField) -> Bool { if case .manifestFile = f { true } else { false } }
        let body: HTML = """
            <h1>\(editing.map { "Edit \($0.name)" } ?? "Add or import an app")</h1>\(errors({ $0 == .app }, id: "app"))
            <form method="post" action="\(editing.map { "/apps/\($0.id)/edit/preview" } ?? "/apps/preview")" class="card" enctype="multipart/form-data" novalidate>\(Layout.csrfField(viewer.csrf))
            <p class="hint">\(editing == nil
                ? "Paste or upload the app's own files, type what they lack, or both. Nothing is registered until you confirm the preview."
                : "Change the entries, or paste or upload the app's files to add theirs. Nothing changes until you confirm the preview; domains the app stops claiming stay registered.")</p>
            <fieldset><legend>Apple</legend>
            <label for="entitlements">Entitlements file <span class="hint">— the <code>.entitlements</code> property list \
            (XML or binary), or the <code>com.apple.developer.associated-domains</code> array</span></label>\
            <textarea id="entitlements" name="entitlements" rows="6" spellcheck="false"\(described(isEntitlements, id: "entitlements"))>\(f.entitlements)</textarea>\
            <label for="entitlements_file" class="hint">or upload it</label>\
            <input type="file" id="entitlements_file" name="entitlements_file" data-fill="entitlements" accept=".entitlements,.plist,.json,.xml">\
            \(errors(isEntitlements, id: "entitlements"))
            <label for="apple_app_ids">App IDs <span class="hint">— one per line, <code>TEAMID.bundle.id</code>, \
            for each variant (staging, enterprise); a signed build's file carries its own</span></label>\
            <textarea id="apple_app_ids" name="apple_app_ids" rows="2" spellcheck="false"\(described(isApple, id: "apple_app_ids"))>\(f.appleAppIDs)</textarea>\
            \(errors(isApple, id: "apple_app_ids"))
            <label for="apple_domains">More Associated Domains entries <span class="hint">— one per line, as the \
            entitlement writes them: <code>applinks:example.com</code>, <code>webcredentials:*.example.com?mode=developer</code></span></label>\
            <textarea id="apple_domains" name="apple_domains" rows="3" spellcheck="false"\(described(isDomains, id: "apple_domains"))>\(f.appleDomains)</textarea>\
            \(errors(isDomains, id: "apple_domains"))
            </fieldset>
            <fieldset><legend>Android</legend>
            <label for="manifest">AndroidManifest.xml</label>\
            <textarea id="manifest" name="manifest" rows="6" spellcheck="false"\(described(isManifest, id: "manifest"))>\(f.manifest)</textarea>\
            <label for="manifest_file" class="hint">or upload it</label>\
            <input type="file" id="manifest_file" name="manifest_file" data-fill="manifest" accept=".xml">\
            \(errors(isManifest, id: "manifest"))
            <label for="android_package">Package <span class="hint">— the applicationId; the manifest's when empty</span></label>\
            <input type="text" id="android_package" name="android_package" value="\(f.androidPackage)" placeholder="com.example.app" \
            autocomplete="off"\(described({ $0 == .androidPackage }, id: "android_package"))>\(errors({ $0 == .androidPackage }, id: "android_package"))
            <label for="fingerprints">Signing key fingerprints <span class="hint">— SHA-256, one per line, optionally followed by \
            <code>app-signing</code> (Play App Signing), <code>upload</code> or <code>other</code>; list both keys during a rotation</span></label>\
            <textarea id="fingerprints" name="fingerprints" rows="2" spellcheck="false"\(described(isFingerprint, id: "fingerprints"))>\(f.fingerprints)</textarea>\
            \(errors(isFingerprint, id: "fingerprints"))
            <label for="android_hosts">More verified hosts <span class="hint">— one per line</span></label>\
            <textarea id="android_hosts" name="android_hosts" rows="2" spellcheck="false"\(described(isHost, id: "android_hosts"))>\(f.androidHosts)</textarea>\
            \(errors(isHost, id: "android_hosts"))
            </fieldset>
            <label for="watched_urls">Watched URLs <span class="hint">— one per line; each must open the app on Apple and on Android. \
            The manifest's path patterns add their own, on Android only.</span></label>\
            <textarea id="watched_urls" name="watched_urls" rows="2" spellcheck="false"\(described(isURL, id: "watched_urls"))>\(f.watchedURLs)</textarea>\
            \(errors(isURL, id: "watched_urls"))
            <label for="android_watched_urls">Watched on Android only <span class="hint">— one per line; not judged on Apple</span></label>\
            <textarea id="android_watched_urls" name="android_watched_urls" rows="2" spellcheck="false"\(described(isAndroidURL, id: "android_watched_urls"))>\(f.androidWatchedURLs)</textarea>\
            \(errors(isAndroidURL, id: "android_watched_urls"))
            <label for="name">Name <span class="hint">— the bundle ID or package when empty</span></label>\
            <input type="text" id="name" name="name" value="\(f.name)" autocomplete="off"\(described({ $0 == .name }, id: "name"))>\
            \(errors({ $0 == .name }, id: "name"))
            <p><button type="submit" class="primary">Preview</button> <a class="button" href="\(editing.map { "/apps/\($0.id)" } ?? "/apps")">Cancel</a></p>
            </form>
            """
        return Layout.page(title: editing.map { "Edit " + $0.name } ?? "Add an app", viewer: viewer, active: .apps, body: body)
    }

    // MARK: preview

    /// What registering (or, with `editing`, changing) the app will do, with the buttons that confirm
    /// it or go back to the form; the fields travel as hidden inputs.
    static func preview(_ plan: AppPlan, fields: AppFormFields, editing: AppRecord? = nil, viewer: Viewer) -> HTML {
        let d = plan.draft
        var rows: HTML = .empty
        for domain in plan.domains {
            let links = domain.links.map { link -> HTML in
                var modes: [String] = []
                if link.developerMode { modes.append("developer mode: origin only") }
                if link.managedMode { modes.append("managed (MDM)") }
                let mode: HTML = modes.isEmpty ? .empty : " <span class=\"muted\">(\(modes.joined(separator: ", ")))</span>"
                return "<li>\(link.platform.label) · \(link.service.label(on: link.platform))\(mode)</li>"
            }
            let status: HTML = domain.isNew ? "<span class=\"pill state-never\">New</span>" : "<span class=\"muted\">already registered</span>"
            rows.append("<tr><td class=\"host\">\(domain.displayHost)</td><td>\(status)</td><td><ul class=\"plain\">\(links)</ul></td></tr>")
        }
        func list(_ items: [String], empty: HTML) -> HTML {
            items.isEmpty ? empty : "<ul>\(items.map { "<li>\($0)</li>" as HTML })</ul>"
        }
        let keys = d.fingerprints.map { "\($0.fingerprint) (\($0.role.label))" }
        let dropped: HTML = plan.dropped.isEmpty ? .empty : """
            <section class="card" id="plan-dropped"><h2>No longer claimed</h2><p>The app stops claiming these domains; \
            they stay registered with their history, without the app's expectations.</p>\(list(plan.dropped, empty: .empty))</section>
            """
        let confirm: HTML
        if let app = editing {
            // One form, two buttons: the edit route shows the form again when `back` is sent.
            confirm = """
                <form method="post" action="/apps/\(app.id)/edit">\(Layout.csrfField(viewer.csrf))\(fields.hiddenFields)\
                <p><button type="submit" class="primary">Save the changes</button> <button type="submit" name="back" value="1">Back to the form</button></p></form>
                """
        } else {
            confirm = """
                <form method="post" action="/apps">\(Layout.csrfField(viewer.csrf))\(fields.hiddenFields)\
                <p><button type="submit" class="primary">Register the app and its domains</button></p></form>
                <form method="post" action="/apps/new">\(Layout.csrfField(viewer.csrf))\(fields.hiddenFields)\
                <p><button type="submit">Back to the form</button></p></form>
                """
        }
        let body: HTML = """
            <h1>\(editing == nil ? "Register" : "Save") \(d.name)?</h1>
            <p>This is what will be \(editing == nil ? "registered" : "saved"). Nothing is written until you confirm.</p>
            <section class="card"><h2>The app</h2><dl class="facts">\
            <dt>Apple app IDs</dt><dd class="mono">\(d.appleAppIDs.isEmpty ? "—" : d.appleAppIDs.joined(separator: ", "))</dd>\
            <dt>Android package</dt><dd class="mono">\(d.androidPackage ?? "—")</dd>\
            <dt>Signing keys</dt><dd class="mono">\(keys.isEmpty ? "—" : keys.joined(separator: "; "))</dd></dl></section>
            <section class="card"><h2>Domains and services (\(plan.domains.count))</h2>\
            <div class="table-wrap"><table id="plan-domains"><thead><tr><th>Domain</th><th>Status</th><th>Links</th></tr></thead>\
            <tbody>\(rows)</tbody></table></div></section>
            <section class="card"><h2>Watched URLs</h2>\(list(d.watchedURLs.map { $0.platforms == .android ? "\($0.url) (Android only)" : $0.url }, empty: "<p class=\"muted\">None.</p>"))</section>
            \(plan.notes.isEmpty ? HTML.empty : "<section class=\"card\"><h2>Notes</h2>\(list(plan.notes, empty: .empty))</section>")
            \(plan.ignored.isEmpty ? HTML.empty : "<section class=\"card\"><h2>Not registered</h2>\(list(plan.ignored, empty: .empty))</section>")
            \(dropped)\(confirm)
            """
        return Layout.page(title: "Preview " + d.name, viewer: viewer, active: .apps, body: body)
    }

    // MARK: app page

    /// The matrix's pager, as the overview's: the domains of one page at a time.
    static func matrixPages(_ m: AppMatrix) -> HTML {
        guard let page = m.page, m.pageCount > 1 else { return .empty }
        let prev: HTML = page > 1 ? "<a class=\"button\" rel=\"prev\" href=\"/apps/\(m.app.id)?page=\(page - 1)\">← Previous</a>" : .empty
        let next: HTML = page < m.pageCount ? "<a class=\"button\" rel=\"next\" href=\"/apps/\(m.app.id)?page=\(page + 1)\">Next →</a>" : .empty
        return """
            <div class="pagination"><span class="muted">\(m.domainCount) domains · page \(page) of \(m.pageCount)</span>\(prev)\(next)</div>
            """
    }

    static func show(_ m: AppMatrix, alerts: [AlertListItem], now: Date, viewer: Viewer, flash: Flash?) -> HTML {
        let nowEpoch = Int64(now.timeIntervalSince1970)
        // Counted over every page's links; the first broken one is named wherever it is.
        let healthy = m.cellCounts[.passing] ?? 0
        var sentence: HTML = "\(healthy) of \(m.cellCounts.values.reduce(0, +)) links healthy."
        if let (row, first) = m.firstBroken {
            let since: HTML = first.since.map { " since \(DisplayTime.dateTime($0))" as HTML } ?? .empty
            sentence.append(" \(first.platform == .android ? "Android App Links" : first.service.label) broken on \(row.displayHost)\(since).")
        }
        var head: HTML = "<tr><th scope=\"col\">Domain</th>"
        let platforms = m.platforms
        for p in platforms { head.append("<th scope=\"col\">\(p.label)</th>") }
        head.append("</tr>")
        var body: HTML = .empty
        for row in m.rows {
            body.append("<tr><th scope=\"row\" class=\"host\"><a href=\"/domains/\(row.domainID)\">\(row.displayHost)</a></th>")
            for p in platforms {
                let mine = row.cells.filter { $0.platform == p }
                guard !mine.isEmpty else { body.append("<td class=\"muted\" data-label=\"\(p.label)\">—</td>"); continue }
                let items = mine.map { cell -> HTML in
                    var modes: [HTML] = []
                    if cell.developerMode { modes.append("<span class=\"tag\" title=\"Devices in developer mode fetch from the origin, skipping Apple's CDN\">developer</span>") }
                    if cell.managedMode { modes.append("<span class=\"tag\" title=\"Only on supervised devices whose MDM approves the domain\">managed</span>") }
                    let since: HTML = cell.since.map {
                        "<span class=\"muted\" title=\"\(DisplayTime.dateTime($0))\">since \(DisplayTime.ago(Int64($0.timeIntervalSince1970), now: nowEpoch))</span>"
                    } ?? .empty
                    let reason: HTML = cell.reason.map { "<span class=\"reason\">\($0)</span>" } ?? .empty
                    return """
                        <li class="cell" data-platform="\(p.rawValue)" data-service="\(cell.service.rawValue)" data-state="\(cell.state.rawValue)"\
                        \(cell.since.map { " data-since=\"\(DisplayTime.dateTime($0))\"" as HTML } ?? .empty)>\
                        <span class="service">\(p == .android ? "App Links" : cell.service.rawValue)</span> \(cell.state.pill) \(modes) \(since)\(reason)</li>
                        """
                }
                body.append("<td data-label=\"\(p.label)\"><ul class=\"plain cells\">\(items)</ul></td>")
            }
            body.append("</tr>")
        }
        var alertRows: HTML = .empty
        for a in alerts {
            alertRows.append("""
                <li><a href="/domains/\(a.domainID)">\(a.displayName)</a>: \(a.summary) \
                <span class="muted">opened \(DisplayTime.ago(Int64(a.openedAt.timeIntervalSince1970), now: nowEpoch))</span></li>
                """)
        }
        let alertsHTML: HTML = alerts.isEmpty ? "<p class=\"muted\">No open alerts.</p>" : "<ul id=\"app-alerts\">\(alertRows)</ul>"
        var watched: HTML = .empty
        for w in m.watched {
            let apple: HTML
            if let r = w.apple {
                apple = r.meetsExpectation ? "<span class=\"ok\">✓ \(r.actual.description)</span>" : "<span class=\"bad\">✗ \(r.actual.description)</span>"
            } else if !w.platforms.watches(.apple) {
                apple = "<span class=\"muted\">not judged: watched on Android only</span>"
            } else {
                apple = m.app.appleAppIDs.isEmpty ? "—" : "<span class=\"muted\">not measured yet</span>"
            }
            let android: HTML
            if let r = w.android {
                let reason: HTML = w.androidReason.map { "<span class=\"reason\">\($0)</span>" } ?? .empty
                android = (r.meetsExpectation ? "<span class=\"ok\">✓ \(r.actual.description)</span>" : "<span class=\"bad\">✗ \(r.actual.description)</span>") + reason
            } else if !w.platforms.watches(.android) {
                android = "<span class=\"muted\">not judged: watched on Apple only</span>"
            } else {
                android = m.app.androidPackage == nil ? "—" : "<span class=\"muted\">not measured yet</span>"
            }
            watched.append("<tr><td class=\"mono\">\(w.url)</td><td data-label=\"Apple\">\(apple)</td><td data-label=\"Android\">\(android)</td></tr>")
        }
        let watchedHTML: HTML = m.watched.isEmpty ? "<p class=\"muted\">No watched URLs.</p>" : """
            <div class="table-wrap stack"><table id="app-watched"><thead><tr><th scope="col">URL</th><th scope="col">Apple</th>\
            <th scope="col">Android</th></tr></thead><tbody>\(watched)</tbody></table></div>
            """
        let ids = m.app.appleAppIDs.isEmpty ? "—" : m.app.appleAppIDs.joined(separator: ", ")
        let keys = m.app.fingerprints.map { "\($0.fingerprint) (\($0.role.label))" }
        // "Check now" for every domain of the app, as the domain page's button is for one.
        let delete: HTML = viewer.canChange ? """
            <form method="post" action="/apps/\(m.app.id)/check" class="inline">\(Layout.csrfField(viewer.csrf))\
            <button type="submit" class="primary">Check now</button></form>\
            <a class="button" href="/apps/\(m.app.id)/edit">Edit</a><a class="button" href="/apps/\(m.app.id)/delete">Delete</a>
            """ : .empty
        let page: HTML = """
            <div class="page-head"><h1>\(m.app.name)</h1><div class="actions">\(delete)</div></div>
            <p class="verdict-sentence" id="app-summary">\(sentence)</p>
            <section class="card"><h2>Domains × services × platforms</h2>\
            <div class="table-wrap stack"><table id="app-matrix"><thead>\(head)</thead><tbody>\(body)</tbody></table></div>\(matrixPages(m))</section>
            <section class="card" id="alerts"><h2>Open alerts</h2>\(alertsHTML)</section>
            <section class="card"><h2>Watched URLs</h2>\(watchedHTML)</section>
            <section class="card"><h2>Identity</h2><dl class="facts"><dt>Apple app IDs</dt><dd class="mono">\(ids)</dd>\
            <dt>Android package</dt><dd class="mono">\(m.app.androidPackage ?? "—")</dd>\
            <dt>Signing keys</dt><dd class="mono">\(keys.isEmpty ? "—" : keys.joined(separator: "; "))</dd></dl></section>
            """
        return Layout.page(title: m.app.name, viewer: viewer, active: .apps, flash: flash, body: page)
    }

    static func confirmDelete(_ app: AppRecord, viewer: Viewer) -> HTML {
        let body: HTML = """
            <h1>Delete \(app.name)?</h1>
            <p>The app and the app IDs it requires of its domains go; the domains stay registered with their history.</p>
            <form method="post" action="/apps/\(app.id)/delete" class="card">\(Layout.csrfField(viewer.csrf))\
            <button type="submit" class="danger">Delete the app</button> <a class="button" href="/apps/\(app.id)">Cancel</a></form>
            """
        return Layout.page(title: "Delete " + app.name, viewer: viewer, active: .apps, body: body)
    }
}
