import Vocabulary

/// The domain page's two platforms side by side (issue #13): a column each for Apple's
/// apple-app-site-association and Android's assetlinks.json, then Android's details — its findings,
/// the origin as each user agent saw it, Google's verdict beside it, the expected identities, the
/// current file and its versions.
extension DomainPage {
    static func platforms(_ m: DomainPageModel) -> HTML {
        guard let android = m.android else { return .empty }
        return """
            <section id="platforms" aria-labelledby="platforms-title"><h2 id="platforms-title">Platforms</h2>\
            <div class="grid-2">\(appleColumn(m, setting: android.platforms))\(androidColumn(android, now: m.now))</div></section>
            """
    }

    static func appleColumn(_ m: DomainPageModel, setting: WatchedPlatforms) -> HTML {
        var body: HTML
        if !setting.watches(.apple) {
            body = "<p class=\"muted\">Not watched: this domain is watched for Android only.</p>"
        } else if let state = m.appleState {
            body = "<p>\(state.pill) \(findingCounts(m.findings))</p>"
            if !m.findings.isEmpty { body.append("<p><a href=\"#findings\">Apple's findings</a> · <a href=\"#locations\">origin and CDN</a></p>") }
        } else {
            body = "<p class=\"muted\">Not checked yet.</p>"
        }
        return "<div class=\"card platform\" id=\"platform-apple\"><h3>Apple <span class=\"muted\">apple-app-site-association</span></h3>\(body)</div>"
    }

    static func androidColumn(_ a: AndroidPanel, now: Int64) -> HTML {
        var body: HTML
        if !a.platforms.watches(.android) {
            body = "<p class=\"muted\">Not watched: this domain is watched for Apple only.</p>"
        } else if let result = a.result {
            if let state = a.state {
                body = "<p>\(state.pill) \(findingCounts(a.findings))</p>"
                if let google = result.google { body.append("<p>Google: \(googleLine(google))</p>") }
                body.append("<p><a href=\"#android\">Android's details</a></p>")
            } else {
                body = "<p class=\"muted\">Not watched: the site serves no assetlinks.json and no Android app is expected of it.</p>"
            }
            if let probed = result.probedAt { body.append("<p class=\"muted\">Fetched \(DisplayTime.ago(DomainHandlers.epoch(probed), now: now)).</p>") }
        } else {
            body = "<p class=\"muted\">Not checked yet.</p>"
        }
        return "<div class=\"card platform\" id=\"platform-android\"><h3>Android <span class=\"muted\">assetlinks.json</span></h3>\(body)</div>"
    }

    static func findingCounts(_ findings: [Finding]) -> HTML {
        guard !findings.isEmpty else { return "No findings." }
        let parts = Severity.allCases.compactMap { s -> String? in
            let n = findings.filter { $0.severity == s }.count
            return n == 0 ? nil : groupTitle(s, n)
        }
        return HTML(text: parts.joined(separator: ", ") + ".")
    }

    /// Google's answer in one line: linked or the error codes, how many statements, for how long.
    static func googleLine(_ g: GoogleVerdict) -> HTML {
        if let unavailable = g.unavailable { return HTML(text: "not available (\(unavailable))") }
        var parts: [String] = []
        parts.append(g.errorCodes.isEmpty ? "no error codes" : "error codes " + g.errorCodes.joined(separator: ", "))
        parts.append("\(g.statementCount) statement\(g.statementCount == 1 ? "" : "s")")
        if !g.notLinked.isEmpty { parts.append("not linked: " + g.notLinked.joined(separator: ", ")) }
        if g.staleBeyondGrace { parts.append("behind the origin beyond maxAge") }
        return HTML(text: parts.joined(separator: " · "))
    }

    /// Android's details: shown when Android counts for the domain (or the site serves a file).
    static func androidDetails(_ m: DomainPageModel) -> HTML {
        guard let a = m.android, a.platforms.watches(.android), let result = a.result, a.counts || a.file != nil else { return .empty }
        var out: HTML = "<section id=\"android\" aria-labelledby=\"android-title\"><h2 id=\"android-title\">Android: assetlinks.json</h2>"
        out.append(findingList(a.findings, id: "android-findings", title: "Findings: assetlinks.json",
                               empty: "No findings: the file, its transport and Google's answer look right."))
        var cards: HTML = .empty
        for l in [a.origin].compactMap({ $0 }) + a.otherUserAgents + a.includes { cards.append(locationCard(l, now: m.now)) }
        cards.append(googleCard(result.google))
        out.append("<div class=\"grid-2\" id=\"android-locations\">\(cards)</div>")
        out.append(identities(result.identities))
        if let file = a.file {
            out.append(fileCard(file, findings: a.findings, id: "android-file", title: "Current file: assetlinks.json"))
        }
        out.append(versionDiff(a.versions, diff: a.diff, id: "android-diff", domainID: m.id, keys: ("afrom", "ato"),
                               title: "Changes between versions of assetlinks.json", noChange: "No behavioural change: every app is granted the same as before."))
        out.append("</section>")
        return out
    }

    /// Google's Digital Asset Links API beside the origin, as Apple's CDN sits beside Apple's origin.
    static func googleCard(_ google: GoogleVerdict?) -> HTML {
        var facts: HTML = .empty
        if let g = google {
            if let u = g.unavailable { facts.append("<dt>Answer</dt><dd class=\"error-text\">not available: \(u)</dd>") }
            facts.append("<dt>Statements</dt><dd>\(g.statementCount)</dd>")
            facts.append("<dt>errorCode</dt><dd>\(g.errorCodes.isEmpty ? "none" : g.errorCodes.joined(separator: ", "))</dd>")
            if let age = g.maxAgeSeconds { facts.append("<dt>maxAge</dt><dd>\(Int(age.rounded())) s</dd>") }
            if let debug = g.debugString { facts.append("<dt>debugString</dt><dd><pre class=\"file\">\(debug)</pre></dd>") }
            if !g.notLinked.isEmpty { facts.append("<dt>Not linked</dt><dd class=\"error-text mono\">\(g.notLinked.joined(separator: "; "))</dd>") }
            facts.append("<dt>Agrees with the origin</dt><dd>\(g.staleBeyondGrace ? "no, beyond maxAge plus the grace period" : "yes, or within maxAge")</dd>")
        } else {
            facts.append("<dt>Answer</dt><dd class=\"muted\">not asked in this check</dd>")
        }
        return "<div class=\"card\" id=\"google-verdict\"><h3>Google Digital Asset Links API (what Google says)</h3><dl class=\"facts\">\(facts)</dl></div>"
    }

    static func identities(_ identities: [AndroidIdentityResult]) -> HTML {
        guard !identities.isEmpty else { return .empty }
        var out: HTML = "<div class=\"card\" id=\"android-identities\"><h3>Expected Android apps</h3><dl class=\"facts\">"
        for i in identities {
            var prints: HTML = .empty
            for f in i.expectedFingerprints {
                let upload: HTML = i.uploadKeys.contains(f) ? " <span class=\"muted\">(upload key)</span>" : .empty
                let holds: HTML = i.grantedFingerprints.contains(f) ? "<span class=\"expect-holds\">✓ granted</span>"
                    : "<span class=\"expect-fails\">✗ missing</span>"
                prints.append("<li><code>\(f)</code>\(upload) \(holds)</li>")
            }
            let named: HTML = i.named ? .empty : " <span class=\"expect-fails\">✗ not in the file</span>"
            out.append("<dt>Package</dt><dd><span class=\"mono\">\(i.packageName)</span>\(named)<ul class=\"plain\">\(prints)</ul></dd>")
        }
        out.append("</dl></div>")
        return out
    }
}
