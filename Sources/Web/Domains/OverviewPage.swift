import Registry
import Store
import Vocabulary
extension OverviewItem {
    /// Each platform's state by its latest check, as the overview and the API's list show it; nil when
    /// the platform is not watched, does not count (no assetlinks.json and no Android app expected) or
    /// was not checked yet.
    var appleState: DomainState? { appleVerdict.map { DomainState(verdict: $0) } }
    var androidState: DomainState? { androidVerdict.map { DomainState(verdict: $0) } }
}

/// The overview's query string, read and written: the Store's `OverviewFilter` is the page's query.
/// The Next/Previous links carry `after` / `before` where the order allows.
extension OverviewFilter {
    /// Reads `?state=&q=&sort=&dir=&page=` leniently: anything unknown falls back to the default.
    public init(_ form: FormData) {
        self = .unfiltered
        state = form["state"].flatMap(DomainState.init(rawValue:))
        platform = form["platform"].flatMap(Platform.init(rawValue:))
        search = String((form["q"] ?? "").trimmingCharacters(in: .whitespaces).prefix(200))
        sort = form["sort"].flatMap(OverviewSort.init(rawValue:)) ?? .state
        descending = form["dir"] == "desc"
        page = max(1, min(Int(form["page"] ?? "") ?? 1, 100_000))
        after = form["after"].flatMap { Int64($0) }.flatMap { $0 > 0 ? $0 : nil }
        before = after == nil ? form["before"].flatMap { Int64($0) }.flatMap { $0 > 0 ? $0 : nil } : nil
    }

    /// The query string for a link that changes some of these values.
    func link(state: DomainState?? = .none, sort: OverviewSort? = nil, descending: Bool? = nil, page: Int? = nil,
              after: Int64? = nil, before: Int64? = nil) -> String {
        var f: [(String, String)] = []
        let s: DomainState? = state ?? self.state
        if let s { f.append(("state", s.rawValue)) }
        if let platform { f.append(("platform", platform.rawValue)) }
        if !search.isEmpty { f.append(("q", search)) }
        let so = sort ?? self.sort
        if so != .state { f.append(("sort", so.rawValue)) }
        if descending ?? self.descending { f.append(("dir", "desc")) }
        let p = page ?? 1
        if p > 1 { f.append(("page", String(p))) }
        if let after { f.append(("after", String(after))) }
        if let before { f.append(("before", String(before))) }
        return f.isEmpty ? "/" : "/?" + FormData(fields: f.map { ($0.0, $0.1) }).encoded()
    }
}

public struct OverviewModel: Sendable {
    /// One page of the overview as the Store reads it.
    public var rows: [OverviewItem]
    /// Rows matching the filter and search, across all pages.
    public var matching: Int
    /// At least `matching` match: a broad search is counted only as far as its pages reach (`OverviewFilter.rankedSearchLimit`).
    public var matchingCapped = false
    /// Domains per state, ignoring the filter, for the summary cards.
    public var counts: [DomainState: Int]
    /// How many domains still wait for their first check, of all: the progress line while an import's
    /// first checks run.
    public var firstChecks = FirstCheckProgress(waiting: 0, total: 0)
    public var query: OverviewFilter
    public var now: Int64

    // Built only by this module's handlers: Swift's memberwise init, internal, is enough.
}

import Foundation

public enum OverviewPage {
    public static func render(_ m: OverviewModel, viewer: Viewer, flash: Flash? = nil) -> HTML {
        Layout.page(title: "Domains", viewer: viewer, active: .overview, flash: flash, body: content(m, canChange: viewer.canChange))
    }

    /// The page once for every viewer of a role (see `SharedPage`).
    static func shared(_ m: OverviewModel, canChange: Bool, flash: Flash? = nil) -> SharedPage {
        Layout.shared(title: "Domains", active: .overview, flash: flash, body: content(m, canChange: canChange))
    }

    /// Everything inside <main> but the flash: the same for every viewer who may (or may not) change things.
    static func content(_ m: OverviewModel, canChange: Bool) -> HTML {
        let total = m.counts.values.reduce(0, +)
        var cards: [HTML] = []
        let allCurrent: HTML = m.query.state == nil ? " aria-current=\"true\"" : ""
        cards.append("<a href=\"\(m.query.link(state: .some(nil)))\"\(allCurrent)><span class=\"count\">\(total)</span><span class=\"muted\">All domains</span></a>")
        for s in DomainState.allCases {
            let current: HTML = m.query.state == s ? " aria-current=\"true\"" : ""
            cards.append("<a href=\"\(m.query.link(state: .some(s)))\"\(current)><span class=\"count\">\(m.counts[s] ?? 0)</span>\(s.pill)</a>")
        }
        let register: HTML = canChange
            ? "<a class=\"button\" href=\"/domains/import\">Import</a><a class=\"button primary\" href=\"/domains/new\">Add a domain</a>" : .empty
        let head: HTML = """
            <div class="page-head"><h1>Domains</h1><div class="actions"><a class="button" href="/apps">By app</a>\
            <a class="button" href="/export/domains.csv">Export CSV</a>\
            <a class="button" href="/export/domains.json">Export JSON</a>\(register)</div></div>
            <nav class="summary" aria-label="Filter by state">\(cards)</nav>\(firstCheckProgress(m.firstChecks))
            """
        var stateOptions: HTML = "<option value=\"\">Any state</option>"
        for s in DomainState.allCases {
            let sel: HTML = m.query.state == s ? " selected" : ""
            stateOptions.append("<option value=\"\(s.rawValue)\"\(sel)>\(s.label)</option>")
        }
        var platformOptions: HTML = "<option value=\"\">Any platform</option>"
        for (p, label) in [(Platform.apple, "Apple"), (.android, "Android")] {
            let sel: HTML = m.query.platform == p ? " selected" : ""
            platformOptions.append("<option value=\"\(p.rawValue)\"\(sel)>\(label)</option>")
        }
        var sortOptions: HTML = .empty
        for (s, label) in [(OverviewSort.state, "Worst first"), (.host, "Host"), (.lastCheck, "Last check"), (.lastChange, "Last change")] {
            let sel: HTML = m.query.sort == s ? " selected" : ""
            sortOptions.append("<option value=\"\(s.rawValue)\"\(sel)>\(label)</option>")
        }
        let filters: HTML = """
            <form class="filters" method="get" action="/" role="search">\
            <input type="search" name="q" value="\(m.query.search)" placeholder="Search hosts" aria-label="Search hosts">\
            <select name="state" aria-label="State">\(stateOptions)</select>\
            <select name="platform" aria-label="Platform">\(platformOptions)</select>\
            <select name="sort" aria-label="Sort">\(sortOptions)</select>\
            <button type="submit">Apply</button></form>
            """
        guard !m.rows.isEmpty else {
            let message: HTML = total == 0
                ? "No domains yet. Register one and its first check starts at once."
                : "No domain matches this filter."
            return head + filters + "<div class=\"card empty\">\(message)</div>"
        }
        func sortHeader(_ s: OverviewSort, _ label: HTML, _ cls: HTML = .empty) -> HTML {
            let desc = m.query.sort == s ? !m.query.descending : false
            let arrow: HTML = m.query.sort == s ? (m.query.descending ? " ↓" : " ↑") : .empty
            return "<th\(cls)><a href=\"\(m.query.link(sort: s, descending: desc))\">\(label)\(arrow)</a></th>"
        }
        var body: HTML = .empty
        let select: (OverviewItem) -> HTML = { r in
            canChange ? "<td class=\"select\" data-label=\"Select\"><input type=\"checkbox\" name=\"id\" value=\"\(r.id)\" form=\"bulk\" aria-label=\"Select \(r.displayName)\"></td>" : .empty
        }
        for r in m.rows {
            let reason: HTML = r.reason.map(\.line).map { "<span class=\"reason\" title=\"\($0)\">\($0)</span>" } ?? .empty
            let hostTitle: HTML = r.displayName != r.host ? "<span class=\"muted mono\"> \(r.host)</span>" : .empty
            let alerts: HTML = r.openAlerts > 0 ? "<a class=\"alert-count\" href=\"/alerts\">\(r.openAlerts)</a>" : "<span class=\"muted\">0</span>"
            body.append("""
                <tr>\(select(r))<td class="host"><a href="/domains/\(r.id)">\(r.displayName)</a>\(hostTitle)\(reason)</td>\
                <td data-label="State">\(r.state.pill)\(r.paused ? DomainState.pausedPill : .empty)</td>\
                <td class="platforms" data-label="Platforms">\(platformCell(r))</td>\
                <td data-label="Last check">\(r.lastCheckedAt.map { DisplayTime.ago(DomainHandlers.epoch($0), now: m.now) } ?? "—")</td>\
                <td data-label="File changed">\(r.lastChangedAt.map { DisplayTime.ago(DomainHandlers.epoch($0), now: m.now) } ?? "—")</td>\
                <td data-label="Response time">\(Sparkline.svg(responseTimes(r), label: "Response times of " + r.displayName))</td>\
                <td data-label="Open alerts">\(alerts)</td></tr>
                """)
        }
        let table: HTML = """
            \(canChange ? bulkForm(m) : .empty)<div class="table-wrap stack"\(canChange ? selectionGroup : .empty)><table><thead><tr>\(canChange ? "<th><span class=\"visually-hidden\">Select</span></th>" : HTML.empty)\(sortHeader(.host, "Domain"))\(sortHeader(.state, "State"))<th>Platforms</th>\
            \(sortHeader(.lastCheck, "Last check"))\(sortHeader(.lastChange, "File changed"))\
            <th>Response time</th><th>Open alerts</th></tr></thead><tbody>\(body)</tbody></table></div>
            \(pagination(m))
            """
        return head + filters + table
    }

    /// The rows' checkboxes, all named `id`, form one group (for a screen reader, and axe's checkboxgroup rule).
    static let selectionGroup: HTML = " role=\"group\" aria-label=\"Domains to select for the bulk actions\""

    /// The bulk actions' form: the rows' checkboxes belong to it (`form="bulk"`), and it carries the
    /// filter, so "all matching" is the filter applied on the server, not the ids of this page. It
    /// asks first: the confirmation page (`BulkPages.confirm`) names the action and the count.
    static func bulkForm(_ m: OverviewModel) -> HTML {
        var hidden: HTML = .empty
        for (name, value) in [("state", m.query.state?.rawValue), ("platform", m.query.platform?.rawValue),
                              ("q", m.query.search.isEmpty ? nil : m.query.search),
                              ("sort", m.query.sort == .state ? nil : m.query.sort.rawValue), ("dir", m.query.descending ? "desc" : nil)] {
            if let value { hidden.append("<input type=\"hidden\" name=\"\(name)\" value=\"\(value)\">") }
        }
        var actions: HTML = .empty
        for a in BulkAction.allCases { actions.append("<option value=\"\(a.rawValue)\">\(BulkPages.label(a))</option>") }
        var intervals: HTML = .empty
        for i in Registration.offeredIntervals {
            intervals.append("<option value=\"\(i.minutes)\"\(i.minutes == 60 ? " selected" : "")>\(i.label)</option>")
        }
        let all = m.matchingCapped ? "All domains matching this filter" : "All \(m.matching) domain\(m.matching == 1 ? "" : "s") matching this filter"
        return """
            <form id="bulk" class="filters bulk" method="get" action="/domains/bulk">\(hidden)\
            <label for="bulk-action">Selected domains:</label><select id="bulk-action" name="action">\(actions)</select>\
            <select name="interval" aria-label="New interval (for Set the interval)">\(intervals)</select>\
            <label class="check"><input type="checkbox" name="all" value="1"> \(all)</label>\
            <button type="submit">Continue…</button></form>
            """
    }

    /// "1,234 domains · page 3 of 25" and the links to the pages either side.
    static func pagination(_ m: OverviewModel) -> HTML {
        // A capped count leaves the last page unknown: there is a next page while this one is full.
        let pages = m.matchingCapped ? (m.rows.count == m.query.pageSize ? m.query.page + 1 : m.query.page)
            : max(1, (m.matching + m.query.pageSize - 1) / m.query.pageSize)
        // Keyset links where the order is an index's: the next page starts after this page's last
        // domain, the previous one ends before its first, so a deep page costs what page 1 does.
        let keyset = m.query.allowsKeyset
        let prevLink = m.query.link(page: m.query.page - 1, before: keyset && m.query.page > 2 ? m.rows.first?.id : nil)
        let nextLink = m.query.link(page: m.query.page + 1, after: keyset ? m.rows.last?.id : nil)
        let prev: HTML = m.query.page > 1 ? "<a class=\"button\" rel=\"prev\" href=\"\(prevLink)\">← Previous</a>" : .empty
        let next: HTML = m.query.page < pages ? "<a class=\"button\" rel=\"next\" href=\"\(nextLink)\">Next →</a>" : .empty
        let matchingText = (m.matchingCapped ? "at least \(m.matching) domains" : "\(m.matching) domain\(m.matching == 1 ? "" : "s")")
        return """
            <div class="pagination"><span class="muted">\(matchingText) · page \(m.query.page)\(m.matchingCapped ? "" : " of \(pages)")</span>\(prev)\(next)</div>
            """
    }

    /// "Checking new domains: 150 of 200 checked, 50 to go." while some domain waits for its first
    /// check (an import's run at the rate the workers sustain); nothing once every domain has a verdict.
    static func firstCheckProgress(_ p: FirstCheckProgress) -> HTML {
        guard p.waiting > 0 else { return .empty }
        return """
            <p class="card first-checks" role="status">Checking new domains: \(p.checked) of \(p.total) checked, \(p.waiting) to go. \
            <span class="muted">Each is checked as soon as a worker has room, oldest first; this page shows them as they finish.</span></p>
            """
    }

    /// Recent total response times in ms, oldest first (the sparkline's order; the Store keeps the
    /// latest first); nil for a failed fetch.
    static func responseTimes(_ r: OverviewItem) -> [Double?] {
        r.latencies.reversed().map { $0.map(Double.init) }
    }

    /// Apple's and Android's state one above the other: what each platform's latest check says.
    /// The lines are apart in the text too (a space between them), so a narrow screen, a copy or a
    /// screen reader never reads "Apple not watchedAndroid".
    static func platformCell(_ r: OverviewItem) -> HTML {
        func line(_ name: String, _ platform: Platform, _ state: DomainState?) -> HTML {
            let text: HTML = if let state { state.pill } else if !r.platforms.watches(platform) {
                "<span class=\"muted\">not watched</span>"
            } else if r.lastCheckedAt == nil || platform == .apple {
                "<span class=\"muted\">not checked</span>"
            } else {
                // Checked, and Android does not count: the site serves no assetlinks.json and no app is expected.
                "<span class=\"muted\">no file</span>"
            }
            return "<span class=\"platform-line\">\(name) \(text)</span>"
        }
        return line("Apple", .apple, r.appleState) + " " + line("Android", .android, r.androidState)
    }
}
