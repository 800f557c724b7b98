import Vocabulary
import AASA

public enum DomainPage {
    public static func render(_ m: DomainPageModel, viewer: Viewer, flash: Flash? = nil) -> HTML {
        let title = m.displayHost
        let punycode: HTML = m.displayHost != m.host ? " <span class=\"muted mono\">\(m.host)</span>" : .empty
        let wildcard: HTML = m.isWildcard ? " <span class=\"muted\">(wildcard *.\(m.displayHost))</span>" : .empty
        var actions: HTML = .empty
        if viewer.canChange {
            // A paused domain is resumed, not checked: "Resume" makes it due at once.
            let pause: HTML = m.paused
                ? "<form method=\"post\" action=\"/domains/\(m.id)/resume\" class=\"inline\">\(Layout.csrfField(viewer.csrf))<button type=\"submit\" class=\"primary\">Resume</button></form>"
                : """
                    <form method="post" action="/domains/\(m.id)/check" class="inline">\(Layout.csrfField(viewer.csrf))\
                    <button type="submit" class="primary">Check now</button></form>\
                    <form method="post" action="/domains/\(m.id)/pause" class="inline">\(Layout.csrfField(viewer.csrf))\
                    <button type="submit">Pause</button></form>
                    """
            actions = pause + """
                <a class="button" href="/domains/\(m.id)/edit">Edit</a>\
                <a class="button danger" href="/domains/\(m.id)/delete">Delete</a>
                """
        }
        actions.append("<a class=\"button\" href=\"/tester?domain=\(m.id)\">Test a URL</a>")
        let head: HTML = """
            <div class="page-head"><div><h1>\(title)\(punycode)</h1><p class="muted">\(wildcard)\(schedule(m))</p></div>\
            <div class="actions">\(actions)</div></div>
            """
        let progress: HTML = m.checking
            ? "<div class=\"progress\" data-poll=\"/domains/\(m.id)/status\"><span class=\"spinner\" aria-hidden=\"true\"></span><span class=\"progress-text\">Checking… the page updates when the result is in.</span> <noscript><a href=\"/domains/\(m.id)\">Reload</a></noscript></div>"
            : .empty
        let verdict: HTML = """
            <section class="verdict state-\(m.state.rawValue)" aria-label="Verdict">\(m.state.pill)\(m.paused ? DomainState.pausedPill : .empty)\
            <span class="sentence">\(m.verdictSentence)</span>\(progress)</section>
            """
        var body = head + verdict
        body.append(platforms(m))
        body.append(findings(m))
        body.append(locations(m))
        body.append(file(m))
        body.append("""
            <section class="grid-2"><div class="card">\
            \(LineChart(title: "Response time", unit: "ms", points: m.responseTimes).svg())</div>\
            <div class="card">\(LineChart(title: "Days until the certificate expires", unit: "days", points: m.certificateDays, threshold: 30).svg())</div></section>
            """)
        body.append(diff(m))
        body.append(androidDetails(m))
        body.append(timeline(m))
        body.append(expectations(m))
        return Layout.page(title: title, viewer: viewer, active: .overview, flash: flash, body: body)
    }

    /// "Checked every hour · last check … · next …", or for a paused domain that it is not checked.
    static func schedule(_ m: DomainPageModel) -> String {
        let last = m.lastCheck.map { " · last check " + DisplayTime.ago($0, now: m.now) } ?? ""
        if m.paused { return "Paused: not checked until resumed" + last }
        let alerting = m.alerting.isEmpty ? "" : " · " + m.alerting
        return "Checked " + intervalLabel(m.intervalMinutes) + alerting + last + (m.nextCheck.map { " · next " + DisplayTime.until($0, now: m.now) } ?? "")
    }

    static func intervalLabel(_ minutes: Int) -> String {
        RegisterFormModel.intervals.first { $0.minutes == minutes }?.label ?? "every \(minutes) minutes"
    }

    static func findings(_ m: DomainPageModel) -> HTML {
        // Watched for Android only: Apple's side is "not watched" in its column, and no more.
        guard !m.findings.isEmpty || m.lastCheck != nil, m.android?.platforms != .android else { return .empty }
        // With both platforms on the page, each list says whose it is.
        return findingList(m.findings, id: "findings", title: m.android == nil ? "Findings" : "Findings: apple-app-site-association",
                           empty: "No findings: the file and its transport look right.")
    }

    /// Findings grouped by severity, each with its code, JSON location and the OS versions it affects.
    static func findingList(_ findings: [Finding], id: String, title: String, empty: String) -> HTML {
        guard !findings.isEmpty else {
            return "<section class=\"card\" id=\"\(id)\"><h2>\(title)</h2><p class=\"muted\">\(empty)</p></section>"
        }
        var out: HTML = "<section class=\"card\" id=\"\(id)\"><h2>\(title)</h2>"
        for severity in Severity.allCases {
            let group = findings.filter { $0.severity == severity }
            guard !group.isEmpty else { continue }
            out.append("<div class=\"findings-group\"><h3>\(groupTitle(severity, group.count))</h3>")
            for f in group {
                let location: HTML = f.location.map { "<span>at <code>\($0.description)</code></span>" } ?? .empty
                let affects: HTML = f.affects.map { "<span>affects \($0)</span>" } ?? .empty
                let hint: HTML = f.hint.map { "<div class=\"hint-text\">\($0)</div>" } ?? .empty
                out.append("""
                    <div class="finding sev-\(f.severity.rawValue)"><div>\(f.message)</div>\(hint)\
                    <div class="meta"><span class="sev">\(f.severity.rawValue)</span><code>\(f.code)</code>\(location)\(affects)</div></div>
                    """)
            }
            out.append("</div>")
        }
        out.append("</section>")
        return out
    }

    static func groupTitle(_ s: Severity, _ n: Int) -> String {
        switch s {
        case .error: n == 1 ? "1 error" : "\(n) errors"
        case .warning: n == 1 ? "1 warning" : "\(n) warnings"
        case .deprecation: n == 1 ? "1 deprecation" : "\(n) deprecations"
        case .info: n == 1 ? "1 note" : "\(n) notes"
        }
    }

    static func milliseconds(_ t: Double) -> String {
        t < 1 ? "under 1" : String(Int(t.rounded()))
    }

    static func locations(_ m: DomainPageModel) -> HTML {
        guard !m.locations.isEmpty else { return .empty }
        var cols: HTML = .empty
        for l in m.locations { cols.append(locationCard(l, now: m.now)) }
        // Origin locations by bytes; the CDN may re-encode the file, so it is judged by behaviour (cdn-stale).
        let hashes = Set(m.locations.filter { !$0.isCDN }.compactMap(\.versionHash))
        let note: HTML = hashes.count > 1
            ? "<p class=\"error-text\">The locations serve different files: devices may see another version than you expect.</p>"
            : .empty
        return "<section id=\"locations\"><h2>Origin and Apple CDN</h2>\(note)<div class=\"grid-2\">\(cols)</div></section>"
    }

    /// One fetched location's transport facts as a card.
    static func locationCard(_ l: DomainPageModel.LocationView, now: Int64) -> HTML {
            var facts: HTML = "<dt>URL</dt><dd class=\"mono\">\(l.url)</dd>"
            if let f = l.failure { facts.append("<dt>Failure</dt><dd class=\"error-text\">\(f)</dd>") }
            if let n = l.notModified {
                // Our own conditional request's answer: the file is unchanged, and the origin's facts are
                // those of its last full answer, not the 304's (which has no body and no Content-Type).
                let since: HTML = n.since.map { ": unchanged since \(DisplayTime.dateTime($0))" } ?? ": unchanged"
                facts.append("<dt>Status</dt><dd class=\"not-modified\">304 Not Modified to our conditional request (If-None-Match)\(since)</dd>")
                if let at = n.fullAnswerAt {
                    facts.append("<dt>Last full answer</dt><dd>\(DisplayTime.dateTime(at))\(n.status.map { ": status \($0)" } ?? "")</dd>")
                }
                if let c = n.contentType { facts.append("<dt>Content-Type</dt><dd class=\"mono\">\(c)</dd>") }
                if let s = n.size { facts.append("<dt>Size</dt><dd>\(s) bytes</dd>") }
            } else {
                if let s = l.status { facts.append("<dt>Status</dt><dd>\(s)</dd>") }
                if let c = l.contentType { facts.append("<dt>Content-Type</dt><dd class=\"mono\">\(c)</dd>") }
                if let s = l.size { facts.append("<dt>Size</dt><dd>\(s) bytes</dd>") }
            }
            if let h = l.versionHash { facts.append("<dt>Version</dt><dd class=\"mono\">\(String(h.prefix(12)))</dd>") }
            if let t = l.totalMilliseconds { facts.append("<dt>Time</dt><dd>\(milliseconds(t)) ms</dd>") }
            if !l.phaseMilliseconds.isEmpty {
                let phases = l.phaseMilliseconds.map { "\($0.name) \(milliseconds($0.milliseconds))" }.joined(separator: " · ")
                facts.append("<dt>Phases (ms)</dt><dd>\(phases)</dd>")
            }
            // What the certificate is for and who issued it, its expiry on the next row: a certificate
            // for the wrong names is as broken as an expired one, and the issuer alone says neither.
            var certificate: [HTML] = []
            if !l.certificateNames.isEmpty {
                certificate.append("for <span class=\"mono\">\(l.certificateNames.joined(separator: ", "))</span>")
            }
            if let i = l.tlsIssuer { certificate.append("issued by \(i)") }
            if !certificate.isEmpty { facts.append("<dt>Certificate</dt><dd>\(certificate.joined(separator: "; "))</dd>") }
            if let n = l.certificateNotAfter {
                facts.append("<dt>Expires</dt><dd>\(DisplayTime.date(n)) (\((n - now) / 86_400) days)</dd>")
            }
            return "<div class=\"card\"><h3>\(l.title)</h3><dl class=\"facts\">\(facts)</dl></div>"
    }

    static func file(_ m: DomainPageModel) -> HTML {
        guard let file = m.file else { return .empty }
        return fileCard(file, findings: m.findings, id: "file", title: m.android == nil ? "Current file" : "Current file: apple-app-site-association")
    }

    /// A stored file pretty-printed, the line of each finding's location marked.
    static func fileCard(_ file: DomainPageModel.FileView, findings: [Finding], id: String, title: String) -> HTML {
        // Mark the line of each finding's location; a finding about a parent marks its first line.
        var notes: [String: String] = [:]
        for f in findings {
            guard let p = f.location?.pointer, !p.isEmpty else { continue }
            notes[p] = notes[p].map { $0 + "; " + f.code } ?? f.code
        }
        var lines: HTML = .empty
        if file.text.pretty {
            var used = Set<String>()
            for line in file.text.lines {
                if let note = notes[line.pointer], !used.contains(line.pointer) {
                    used.insert(line.pointer)
                    lines.append("<span class=\"line marked\" data-note=\"\(note)\" title=\"\(note)\">\(line.text)</span>")
                } else {
                    lines.append("<span class=\"line\">\(line.text)</span>")
                }
            }
        } else {
            // Not JSON: its text as served, the first 256 KB of it (the Raw link has the rest).
            var shown = 0
            for line in file.text.lines where shown < 256 << 10 {
                shown += line.text.utf8.count + 1
                lines.append("<span class=\"line\">\(line.text)</span>")
            }
        }
        return """
            <section class="card" id="\(id)"><div class="page-head"><h2>\(title)</h2>\
            <a class="button" href="/versions/\(file.hash)">Raw</a></div>\
            <p class="muted">Version <code>\(String(file.hash.prefix(12)))</code>, \(file.size) bytes, first seen \
            \(DisplayTime.dateTime(file.firstSeen)).</p><pre class="file">\(lines)</pre></section>
            """
    }

    static func diff(_ m: DomainPageModel) -> HTML {
        versionDiff(m.versions, diff: m.diff, id: "diff", domainID: m.id, keys: ("from", "to"),
                    title: m.android == nil ? "Changes between versions" : "Changes between versions of apple-app-site-association",
                    noChange: "No behavioural change: every app gets the same URLs as before.")
    }

    /// Two versions of a file compared; `keys` name the query parameters that pick them.
    static func versionDiff(_ versions: [DomainPageModel.VersionEntry], diff: DomainPageModel.DiffView?, id: String, domainID: Int64,
                            keys: (from: String, to: String), title: String, noChange: String) -> HTML {
        guard versions.count >= 2 else { return .empty }
        func options(_ selected: String?) -> HTML {
            var out: HTML = .empty
            for v in versions {
                let sel: HTML = v.hash == selected ? " selected" : ""
                out.append("<option value=\"\(v.hash)\"\(sel)>\(String(v.hash.prefix(12))) · \(DisplayTime.dateTime(v.firstSeen))</option>")
            }
            return out
        }
        var out: HTML = """
            <section class="card" id="\(id)"><h2>\(title)</h2>\
            <form method="get" action="/domains/\(domainID)#\(id)" class="filters">\
            <label class="inline">From <select name="\(keys.from)">\(options(diff?.fromHash))</select></label>\
            <label class="inline">to <select name="\(keys.to)">\(options(diff?.toHash))</select></label>\
            <button type="submit">Compare</button></form>
            """
        if let d = diff {
            out.append("<h3>What changes for devices</h3>")
            if d.behavioural.isEmpty && d.watched.isEmpty {
                out.append("<p class=\"muted\">\(noChange)</p>")
            } else {
                var items: HTML = .empty
                for w in d.watched {
                    items.append("<li><strong>Watched URL</strong> <code>\(w.url)</code>: \(w.before) → <strong>\(w.after)</strong></li>")
                }
                for b in d.behavioural { items.append("<li>\(b)</li>") }
                out.append("<ul class=\"changes\">\(items)</ul>")
            }
            out.append("<h3>Text</h3>")
            out.append(TextDiff.render(d.text))
        }
        out.append("</section>")
        return out
    }

    static func timeline(_ m: DomainPageModel) -> HTML {
        guard !m.timeline.isEmpty else { return .empty }
        var items: HTML = .empty
        for t in m.timeline {
            if let run = t.unchangedAfter { items.append(unchangedRun(run)) }
            let version: HTML = t.versionHash.map { "<code>\(String($0.prefix(12)))</code>" } ?? .empty
            let new: HTML = t.newVersion ? "<span class=\"badge-new\">new version</span>" : .empty
            let android: HTML = t.android.isEmpty ? .empty
                : "<ul class=\"android-events\">\(t.android.map { "<li>\($0)</li>" as HTML })</ul>"
            items.append("<li><span class=\"when\">\(DisplayTime.dateTime(t.time))</span>\(timelinePill(t))\(version)\(new)<span>\(t.summary)</span>\(android)</li>")
        }
        return "<section class=\"card\" id=\"timeline\"><h2>Timeline</h2><ul class=\"timeline\">\(items)</ul></section>"
    }

    /// The domain's state after the check, as the banner and the overview show it: an unmet
    /// expectation fails the domain whatever the file's own verdict, which the tooltip keeps
    /// ("Failing · 1 expectation unmet", title "The file itself: Passing").
    static func timelinePill(_ t: DomainPageModel.TimelineEntry) -> HTML {
        guard t.unmetExpectations > 0 else { return t.state.pill }
        let n = t.unmetExpectations
        let failing = DomainState.failing
        return "<span class=\"pill state-\(failing.rawValue) unmet\" title=\"The file itself: \(t.state.label)\">\(failing.label) · \(n) expectation\(n == 1 ? "" : "s") unmet</span>"
    }

    /// "unchanged × 240, 2026-11-21 10:00–20:00 UTC": the repeats between two changes in one line.
    static func unchangedRun(_ run: DomainPageModel.UnchangedRunView) -> HTML {
        let first = DisplayTime.dateTime(run.first), last = DisplayTime.dateTime(run.last)
        let span: String
        if run.count == 1 || run.first == run.last {
            span = first
        } else if first.prefix(10) == last.prefix(10) {
            // Same day: the date once.
            span = String(first.dropLast(4)) + "–" + String(last.dropFirst(11))
        } else {
            span = first + " – " + last
        }
        return "<li class=\"unchanged\"><span class=\"muted\">unchanged × \(run.count), \(span)</span></li>"
    }

    static func expectations(_ m: DomainPageModel) -> HTML {
        guard !m.appIDs.isEmpty || !m.watched.isEmpty || !m.androidApps.isEmpty else { return .empty }
        var out: HTML = "<section class=\"card\" id=\"expectations\"><h2>Expectations</h2><dl class=\"facts\">"
        // Each expectation says whether the current file meets it (nothing when no usable file was seen).
        func verdict(_ holds: Bool, _ detail: String = "") -> HTML {
            guard m.expectationStatus != nil else { return .empty }
            return holds ? " <span class=\"expect-holds\">✓ holds</span>"
                : " <span class=\"expect-fails\">✗ \(detail.isEmpty ? "fails" : detail)</span>"
        }
        for a in m.appIDs {
            let missing = m.expectationStatus?.missingAppIDs.contains("\(a.service.rawValue) \(a.appID)") == true
            out.append("<dt>\(a.service.rawValue)</dt><dd><span class=\"mono\">\(a.appID)</span>\(verdict(!missing, "missing from the file"))</dd>")
        }
        for w in m.watched {
            let expect = w.expect == "browser" ? "stays in the browser" : "opens " + w.expect
            let outcome = m.expectationStatus?.watchedOutcomes[w.url]
            var android: HTML = .empty
            if let a = m.androidWatched[w.url] {
                // Measured by Android's own check, so shown even where Apple's file gave no verdict.
                let holds: HTML = a.holds.map { $0 ? " <span class=\"expect-holds\">✓ holds</span>"
                    : " <span class=\"expect-fails\">✗ it \(a.actual ?? "")</span>" } ?? .empty
                android = "<br><span class=\"android-expect\">Android 15+: \(a.expected)\(a.statedApart ? "" : " (as on Apple)")</span>\(holds)"
            }
            out.append("<dt>URL</dt><dd><code>\(w.url)</code> \(expect)\(verdict(outcome?.holds ?? true, "it \(outcome?.actual ?? "")"))\(android)</dd>")
        }
        for app in m.androidApps {
            out.append("<dt>Android app</dt><dd><span class=\"mono\">\(app.package)</span> <span class=\"muted\">\(app.keys) signing key\(app.keys == 1 ? "" : "s")</span></dd>")
        }
        out.append("</dl></section>")
        return out
    }

    /// The confirmation page a delete link leads to; the deletion itself is a POST.
    public static func confirmDelete(id: Int64, displayHost: String, viewer: Viewer) -> HTML {
        Layout.page(title: "Delete " + displayHost, viewer: viewer, active: .overview, body: """
            <h1>Delete \(displayHost)?</h1><div class="card"><p>This removes the domain, its checks, versions and alerts. \
            It cannot be undone.</p>\
            <form method="post" action="/domains/\(id)/delete" data-confirm="Delete \(displayHost) and all its history?">\
            \(Layout.csrfField(viewer.csrf))<button type="submit" class="danger">Delete</button> \
            <a class="button" href="/domains/\(id)">Cancel</a></form></div>
            """)
    }
}
