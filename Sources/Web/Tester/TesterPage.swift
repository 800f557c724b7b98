/// The URL tester: which app a URL opens, and the rule that decided.
public struct TesterModel: Sendable {
    public struct Step: Sendable {
        public var text: String
        public var location: String?
        public var decides: Bool
        public init(text: String, location: String? = nil, decides: Bool = false) {
            self.text = text
            self.location = location
            self.decides = decides
        }
    }

    public struct AppOutcome: Sendable {
        public var appID: String
        public var opens: Bool
        /// Why, in one sentence.
        public var reason: String
        public var steps: [Step]
    }

    /// One Android app's answer: Android 15+ by the dynamic rules, older versions by verification alone.
    public struct AndroidAppAnswer: Sendable {
        public var packageName: String
        public var opensDynamic: Bool
        public var dynamicReason: String
        public var opensOlder: Bool
        public var olderReason: String
        /// The dynamic rules tried on Android 15+, the deciding one marked.
        public var steps: [Step]
    }

    public struct AndroidAnswer: Sendable {
        public var source: String
        public var apps: [AndroidAppAnswer]
        public var findings: [String]
        /// The app that opens the URL on Android 15+ (the first of `apps` that does), and on older versions; nil: the browser.
        public var opens: String? { apps.first { $0.opensDynamic }?.packageName }
        public var opensOlder: String? { apps.first { $0.opensOlder }?.packageName }
        /// The dynamic rule that decided for `packageName` on Android 15+, when rules decided.
        public func decidingRule(_ app: AndroidAppAnswer) -> String? { app.steps.first { $0.decides }?.text }
    }

    public var url: String = ""
    public var pasted: String = ""
    /// The Android package to ask about (empty: every app the file grants handle_all_urls).
    public var package: String = ""
    public var pastedAndroid: String = ""
    /// Android's answer; nil when there was no assetlinks.json to test against.
    public var android: AndroidAnswer?
    /// Why a platform has no answer (no file to test against, an unreadable file), shown in its column.
    public var appleMessage: String?
    public var androidMessage: String?
    /// Registered domains the chooser offers (id, display host): those matching `find`, or the first
    /// by name; `domainID` is the selected one.
    public var domains: [(id: Int64, host: String)] = []
    /// The chooser's search (`/tester?find=`): part of a host or a name.
    public var find: String = ""
    public var domainID: Int64?
    public var errors: [String: String] = [:]
    /// nil until a test ran.
    public var outcomes: [AppOutcome]?
    /// Where the file came from: "pasted text" or "the current file of example.com".
    public var source: String?
    public var findings: [String] = []

    public init() {}
}

public enum TesterPage {
    public static func render(_ m: TesterModel, viewer: Viewer) -> HTML {
        func err(_ f: String) -> HTML { m.errors[f].map { "<p class=\"error-text\">\($0)</p>" } ?? .empty }
        var body: HTML = """
            <h1>URL tester</h1><form method="get" action="/tester" id="domain-search"></form>\
            <form method="post" action="/tester" class="card">\(Layout.csrfField(viewer.csrf))\
            <label for="url">URL</label><input type="url" id="url" name="url" value="\(m.url)" placeholder="https://example.com/product/42" required autofocus>\(err("url"))\
            \(domainChooser(m))\(err("domain"))\
            <label for="aasa">Paste an apple-app-site-association file <span class="hint">(optional; used instead of the stored file)</span></label>\
            <textarea id="aasa" name="aasa" rows="10" spellcheck="false">\(m.pasted)</textarea>\(err("aasa"))\
            <label for="package">Android package <span class="hint">(optional; every app the assetlinks.json verifies when empty)</span></label>\
            <input type="text" id="package" name="package" value="\(m.package)" placeholder="com.example.app" autocomplete="off">\
            <label for="assetlinks">Paste an assetlinks.json <span class="hint">(optional; used instead of the domain's stored one)</span></label>\
            <textarea id="assetlinks" name="assetlinks" rows="6" spellcheck="false">\(m.pastedAndroid)</textarea>\(err("assetlinks"))\
            <p><button type="submit" class="primary">Test</button></p></form>
            """
        if m.outcomes != nil || m.android != nil || m.appleMessage != nil {
            body.append("<section aria-labelledby=\"result-title\"><h2 id=\"result-title\">Result</h2><div class=\"grid-2\">")
            body.append(appleColumn(m))
            body.append(androidColumn(m))
            body.append("</div></section>")
        }
        return Layout.page(title: "URL tester", viewer: viewer, active: .tester, body: body)
    }

    /// The stored file of which domain: a search (its own GET form, `#domain-search`, which the
    /// search field and its submit input join by their `form` attribute: no JavaScript, no nested
    /// form, and Enter in the URL field still runs the test) and a short list of what it found,
    /// never every domain.
    static func domainChooser(_ m: TesterModel) -> HTML {
        var options: HTML = "<option value=\"\">— the URL's own domain, or the pasted file —</option>"
        for d in m.domains {
            let sel: HTML = d.id == m.domainID ? " selected" : ""
            options.append("<option value=\"\(d.id)\"\(sel)>\(d.host)</option>")
        }
        let listed = m.domains.filter { $0.id != m.domainID }.count
        let note: HTML
        if !m.find.isEmpty && listed == 0 {
            note = "No registered domain matches “\(m.find)”."
        } else if !m.find.isEmpty {
            note = listed >= TesterHandlers.choiceLimit ? "\(listed) of the domains matching “\(m.find)”; type more of the name to narrow them."
                : "\(listed) \(listed == 1 ? "domain matches" : "domains match") “\(m.find)”."
        } else {
            note = listed >= TesterHandlers.choiceLimit ? "The first \(listed) domains by name; search for another." : .empty
        }
        return """
            <label for="find">Find a domain <span class="hint">— part of its host or name (one or two letters: its start)</span></label>\
            <div class="filters"><input type="search" id="find" name="find" value="\(m.find)" form="domain-search" placeholder="shop.example">\
            <input type="submit" class="button" value="Search" form="domain-search"></div>\
            <label for="domain">Association file <span class="hint">— the stored current file of a domain, or paste one below</span></label>\
            <select id="domain" name="domain">\(options)</select><p class="hint" id="domain-note">\(note)</p>
            """
    }

    /// Apple's answer: the AASA's deciding rule per app.
    static func appleColumn(_ m: TesterModel) -> HTML {
        var result: HTML = "<div class=\"card\" id=\"apple-answer\"><h3>Apple</h3>"
        if let outcomes = m.outcomes {
            if let source = m.source { result.append("<p class=\"muted\">Using \(source).</p>") }
            let opening = outcomes.filter(\.opens)
            if let first = opening.first {
                result.append("<div class=\"outcome opens\">Opens <code>\(first.appID)</code></div>")
            } else {
                result.append("<div class=\"outcome none\">No app opens this URL: it stays in the browser.</div>")
            }
            for o in outcomes {
                var steps: HTML = .empty
                for s in o.steps {
                    let loc: HTML = s.location.map { " <code class=\"muted\">\($0)</code>" } ?? .empty
                    steps.append(s.decides ? "<li class=\"decider\">\(s.text)\(loc)</li>" : "<li>\(s.text)\(loc)</li>")
                }
                result.append("<h4><code>\(o.appID)</code> — \(o.opens ? "opens" : "does not open")</h4><p>\(o.reason)</p><ul class=\"steps\">\(steps)</ul>")
            }
            if !m.findings.isEmpty {
                result.append("<h4>Problems in this file</h4><ul class=\"changes\">\(m.findings.map { f -> HTML in "<li>\(f)</li>" })</ul>")
            }
        } else {
            result.append("<p class=\"muted\">\(m.appleMessage ?? "No apple-app-site-association to test against.")</p>")
        }
        result.append("</div>")
        return result
    }

    /// Android's answer: per app, Android 15+ (dynamic rules) and older versions (every path of a verified host).
    static func androidColumn(_ m: TesterModel) -> HTML {
        var result: HTML = "<div class=\"card\" id=\"android-answer\"><h3>Android</h3>"
        guard let a = m.android else {
            result.append("<p class=\"muted\">\(m.androidMessage ?? "No assetlinks.json to test against: paste one, or choose a domain that serves one.")</p></div>")
            return result
        }
        result.append("<p class=\"muted\">Using \(a.source).</p>")
        if a.apps.isEmpty {
            result.append("<div class=\"outcome none\">No statement grants handle_all_urls to an app: the URL opens in the browser.</div>")
        }
        for app in a.apps {
            var steps: HTML = .empty
            for s in app.steps { steps.append(s.decides ? "<li class=\"decider\">\(s.text)</li>" : "<li>\(s.text)</li>") }
            result.append("""
                <h4><code>\(app.packageName)</code></h4>\
                <dl class="facts"><dt>Android 15+</dt><dd><strong>\(app.opensDynamic ? "opens the app" : "stays in the browser")</strong>: \(app.dynamicReason)</dd>\
                <dt>Android 14 and older</dt><dd><strong>\(app.opensOlder ? "opens the app" : "stays in the browser")</strong>: \(app.olderReason)</dd></dl>\
                \(steps.isEmpty ? HTML.empty : "<ul class=\"steps\">\(steps)</ul>")
                """)
        }
        if !a.findings.isEmpty {
            result.append("<h4>Problems in this file</h4><ul class=\"changes\">\(a.findings.map { f -> HTML in "<li>\(f)</li>" })</ul>")
        }
        result.append("</div>")
        return result
    }
}
