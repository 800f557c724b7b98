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
        public init(appID: String, opens: Bool, reason: String, steps: [Step]) {
            self.appID = appID
            self.opens = opens
            self.reason = reason
            self.steps = steps
        }
    }

    public var url: String = ""
    public var pasted: String = ""
    /// Registered domains to test against (id, display host); `domainID` is the selected one.
    public var domains: [(id: Int64, host: String)] = []
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
        var options: HTML = "<option value=\"\">— use the pasted file —</option>"
        for d in m.domains {
            let sel: HTML = d.id == m.domainID ? " selected" : ""
            options.append("<option value=\"\(d.id)\"\(sel)>\(d.host)</option>")
        }
        var body: HTML = """
            <h1>URL tester</h1><form method="post" action="/tester" class="card">\(Layout.csrfField(viewer.csrf))\
            <label for="url">URL</label><input type="url" id="url" name="url" value="\(m.url)" placeholder="https://example.com/product/42" required autofocus>\(err("url"))\
            <label for="domain">Association file <span class="hint">— the stored current file of a domain, or paste one below</span></label>\
            <select id="domain" name="domain">\(options)</select>\(err("domain"))\
            <label for="aasa">Paste an apple-app-site-association file <span class="hint">(optional; used instead of the stored file)</span></label>\
            <textarea id="aasa" name="aasa" rows="10" spellcheck="false">\(m.pasted)</textarea>\(err("aasa"))\
            <p><button type="submit" class="primary">Test</button></p></form>
            """
        if let outcomes = m.outcomes {
            var result: HTML = "<section class=\"card\"><h2>Result</h2>"
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
                result.append("<h3><code>\(o.appID)</code> — \(o.opens ? "opens" : "does not open")</h3><p>\(o.reason)</p><ul class=\"steps\">\(steps)</ul>")
            }
            if !m.findings.isEmpty {
                result.append("<h3>Problems in this file</h3><ul class=\"changes\">\(m.findings.map { f -> HTML in "<li>\(f)</li>" })</ul>")
            }
            result.append("</section>")
            body.append(result)
        }
        return Layout.page(title: "URL tester", viewer: viewer, active: .tester, body: body)
    }
}
