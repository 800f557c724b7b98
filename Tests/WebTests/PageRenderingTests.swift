import Foundation
import Vocabulary
import Testing
import AASA
@testable import Web
@testable import Store

/// Every page rendered from view models whose every string is hostile: no `<script` may survive, and
/// no `HTML(rendered:` may leak (an HTML value interpolated into a plain String by mistake).
@Suite struct PageRenderingTests {
    static let evil = "<script>alert(1)</script>\"'&"
    let viewer = Viewer(userID: 1, email: evil + "@x", role: .admin, csrf: "tok\"en")
    let readOnly = Viewer(userID: 2, email: "r@x", role: .readOnly, csrf: "t")

    func expectSafe(_ page: HTML, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let s = page.rendered
        #expect(!s.contains("<script>"), sourceLocation: sourceLocation)
        #expect(!s.contains("HTML(rendered"), sourceLocation: sourceLocation)
        #expect(s.contains("&lt;script&gt;"), sourceLocation: sourceLocation)
        // The only scripts are our own file.
        #expect(s.components(separatedBy: "<script").count == 2, sourceLocation: sourceLocation)
        #expect(s.contains("<script src=\"/static/js/app.js\" defer></script>"), sourceLocation: sourceLocation)
    }

    @Test func overview() {
        let e = Self.evil
        let rows = (1...3).map { OverviewItem(id: Int64($0), host: e, displayName: e, state: .failing, reason: DomainReason(e, platform: .apple),
                                              lastCheckedAt: Date(timeIntervalSince1970: 10), lastChangedAt: Date(timeIntervalSince1970: 5),
                                              latencies: [3, nil, 1], openAlerts: 2, platforms: .both, appleVerdict: .pass) }
        let m = OverviewModel(rows: rows, matching: 120, counts: [.failing: 3], query: OverviewFilter(search: e, page: 2), now: 100)
        let page = OverviewPage.render(m, viewer: viewer, flash: Flash(.error, e))
        expectSafe(page)
        #expect(page.rendered.contains("page 2 of 3"))
        // A row as the Store reads it: times ago from its dates, the sparkline oldest first (the
        // Store keeps the latest first), Apple's state by its verdict, Android's not checked.
        let ago = (DisplayTime.ago(10, now: 100), DisplayTime.ago(5, now: 100))
        #expect(page.rendered.contains("<td data-label=\"Last check\">\(ago.0)</td><td data-label=\"File changed\">\(ago.1)</td>"))
        #expect(page.rendered.contains(Sparkline.svg([1, nil, 3], label: "Response times of " + e).rendered))
        #expect(page.rendered.contains("Apple \(DomainState.passing.pill.rendered)</span>"))
        #expect(page.rendered.contains("Android <span class=\"muted\">no file</span>"))
        #expect(page.rendered.contains("rel=\"prev\"") && page.rendered.contains("rel=\"next\""))
        #expect(page.rendered.contains("Add a domain"))
        // The menu says what the item does: "Register" read like signing up (issue #32).
        #expect(page.rendered.contains("<a href=\"/domains/new\">Add domain</a>") && !page.rendered.contains(">Register<"))
        #expect(!OverviewPage.render(m, viewer: readOnly).rendered.contains("Add a domain"))
        // A broad search counted only to its limit: no last page to name; Next while the page is full.
        var broad = OverviewFilter(search: e, page: 2)
        broad.pageSize = 3
        let capped = OverviewPage.render(OverviewModel(rows: rows, matching: 1_000, matchingCapped: true, counts: [:], query: broad, now: 100),
                                         viewer: viewer).rendered
        #expect(capped.contains("at least 1000 domains · page 2</span>") && capped.contains("rel=\"next\""))
        let lastOfThem = OverviewPage.render(OverviewModel(rows: Array(rows.prefix(2)), matching: 1_000, matchingCapped: true, counts: [:],
                                                           query: broad, now: 100), viewer: viewer).rendered
        #expect(lastOfThem.contains("rel=\"prev\"") && !lastOfThem.contains("rel=\"next\""))
        let empty = OverviewModel(rows: [], matching: 0, counts: [:], query: OverviewFilter(), now: 0)
        #expect(OverviewPage.render(empty, viewer: viewer).rendered.contains("No domains yet"))
    }

    @Test func register() {
        var m = RegisterFormModel()
        let e = Self.evil
        m.host = e
        m.appIDs = [(.applinks, e)]
        m.watched = [(e, e, e)]
        m.errors = ["host": e, "appid.0": e, "url.0": e, "android_expect.0": e, "form": e]
        let page = RegisterPage.render(m, viewer: viewer)
        expectSafe(page)
        #expect(page.rendered.contains("aria-invalid=\"true\" aria-describedby=\"err-host\""))
        #expect(page.rendered.contains("value=\"tok&quot;en\""))
    }

    @Test func domain() {
        let e = Self.evil
        let file = Array("{\"applinks\":{\"details\":[{\"appIDs\":[\"\(e.replacingOccurrences(of: "\"", with: "\\\""))\"],\"components\":[{\"/\":\"/a\"}]}]}}".utf8)
        let finding = Finding(code: e, severity: .error, location: Vocabulary.SourceLocation(pointer: "/applinks/details/0/appIDs"),
                              message: e, hint: e, affects: e)
        let m = DomainPageModel(
            id: 7, host: e, displayHost: e, state: .failing, verdictSentence: e, checking: true, lastCheck: 1, nextCheck: 99,
            findings: [finding, Finding(code: "x", severity: .info, message: e)],
            file: .init(text: VersionReading(aasa: file).text, size: file.count, hash: e, firstSeen: 0),
            locations: [.init(title: e, url: e, status: 200, contentType: e, size: 3, versionHash: e, tlsIssuer: e,
                              certificateNotAfter: 86_400 * 40, totalMilliseconds: 12, failure: e)],
            timeline: [.init(checkID: 1, time: 0, state: .failing, versionHash: e, newVersion: true, summary: e)],
            versions: [.init(hash: e, firstSeen: 0, size: 1), .init(hash: "b", firstSeen: 1, size: 2)],
            diff: .init(fromHash: e, toHash: "b", behavioural: [e], watched: [.init(url: e, before: e, after: e)],
                        text: TextDiff.diff([e, "a"], ["a", e + "!"])),
            responseTimes: [.init(time: 0, value: 5), .init(time: 60, value: 7)],
            certificateDays: [.init(time: 0, value: 40)],
            appIDs: [(.applinks, e)], watched: [(e, e)], now: 100)
        let page = DomainPage.render(m, viewer: viewer)
        expectSafe(page)
        let s = page.rendered
        #expect(s.contains("class=\"line marked\""))
        #expect(s.contains("data-poll=\"/domains/7/status\""))
        #expect(s.contains("1 error") && s.contains("1 note"))
        #expect(s.contains("action=\"/domains/7/check\""))
        #expect(!DomainPage.render(m, viewer: readOnly).rendered.contains("action=\"/domains/7/check\""))
        expectSafe(DomainPage.confirmDelete(id: 7, displayHost: e, viewer: viewer))
    }

    /// A past check's pill is its file verdict; expectations it missed are said beside it.
    @Test func timelinePillSaysUnmetExpectations() {
        func pill(_ state: DomainState, _ unmet: Int) -> String {
            DomainPage.timelinePill(.init(checkID: 1, time: 0, state: state, versionHash: nil, newVersion: false, summary: "",
                                          unmetExpectations: unmet)).rendered
        }
        #expect(pill(.passing, 0) == DomainState.passing.pill.rendered)
        // The banner and the overview call such a domain failing; the pill agrees and keeps the file's own verdict.
        #expect(pill(.passing, 1).contains(">Failing · 1 expectation unmet<") && pill(.passing, 1).contains("state-failing unmet"))
        #expect(pill(.passing, 1).contains("title=\"The file itself: Passing\""))
        #expect(pill(.warning, 2).contains(">Failing · 2 expectations unmet<") && pill(.warning, 2).contains("The file itself: Warnings"))
    }

    @Test func otherPages() {
        let e = Self.evil
        var t = TesterModel()
        t.url = e; t.pasted = e; t.domains = [(1, e)]; t.errors = ["url": e]; t.source = e; t.findings = [e]; t.find = e
        t.outcomes = [.init(appID: e, opens: true, reason: e, steps: [.init(text: e, location: e, decides: true)])]
        let tester = TesterPage.render(t, viewer: viewer)
        expectSafe(tester)
        #expect(tester.rendered.contains("class=\"decider\""))

        var a = AlertsModel(now: 10)
        a.open = [.init(id: 1, domainID: 1, host: e, rule: e, message: e, opened: 1, resolved: nil)]
        a.resolved = [.init(id: 2, domainID: 1, host: e, rule: e, message: e, opened: 1, resolved: 5)]
        a.channels = [.init(channelID: 1, name: e, deliveries: [.init(time: 1, event: [e, e], attempts: 2, delivered: false, lastError: e)])]
        expectSafe(AlertsPage.render(a, viewer: viewer))

        for section in SettingsSection.allCases {
            var s = SettingsModel(now: 10, section: section)
            s.channels = [.init(id: 1, kind: e, target: e, enabled: true)]
            s.users = [.init(id: 3, email: e, role: .readOnly, created: 0)]
            s.tokens = [.init(id: 1, name: e, created: 0, lastUsed: nil)]
            s.email.smtpURL = e; s.email.baseURL = e
            s.newToken = e; s.errors = ["target": e, "name": e, "email": e, "failure_threshold": e]
            s.values = ["target": e, "name": e, "email": e, "failure_threshold": e]
            let settings = SettingsPage.render(s, viewer: viewer)
            expectSafe(settings)
            if section == .users { #expect(settings.rendered.contains("<table><thead><tr><th>Name</th>")) }
        }
        expectSafe(ChannelNewPage.render(ChannelForm(kind: .customWebhook, values: ["name": e, "target": e, "template": e, "domains": e],
                                                     errors: ["target": e], apps: [.init(id: 1, name: e)]), viewer: viewer))
        expectSafe(ChannelNewPage.chooser(viewer: viewer, error: e))
        expectSafe(AccountPages.login(email: e, error: e, csrf: e))
        expectSafe(AccountPages.setup(email: e, errors: ["email": e], csrf: e))
        expectSafe(AccountPages.changePassword(viewer: viewer, errors: ["current": e]))
        expectSafe(AccountPages.problem(status: 404, title: e, message: e, viewer: viewer, requestID: e))
    }

    @Test func textDiffCollapsesUnchangedRuns() {
        let old = (1...20).map { "line \($0)" }
        var new = old
        new[10] = "changed"
        let ops = TextDiff.diff(old, new, context: 2)
        #expect(ops == [.skipped(8), .same("line 9"), .same("line 10"), .removed("line 11"), .added("changed"),
                        .same("line 12"), .same("line 13"), .skipped(7)])
        #expect(TextDiff.diff(["a"], ["a"]) == [.skipped(1)])
    }
}
