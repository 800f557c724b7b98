import AASA
import Foundation
import Monitor
import Store

/// Overview, register, domain page, edit, delete, check now.
enum DomainHandlers {
    static func overview(_ c: RequestContext) throws -> WebResponse {
        let viewer = try c.signedIn
        let query = OverviewQuery(c.query)
        let flash = c.flash
        // Per role (the register button) and normalised query; the rest of the page is the same for
        // everyone. The per-user header is rendered per request by `SharedPage`.
        let key = (viewer.canChange ? "change " : "look ") + query.link()
        let changes = c.changes
        let page = try c.overviewCache.value(key, generation: { changes.dataGeneration },
                                                 staleFloor: { changes.dataFloor }, cacheable: changes.isLive && flash == nil) {
            try OverviewPage.shared(overviewModel(c, query), canChange: viewer.canChange, flash: flash)
        }
        return c.showing(flash, .html(parts: page.parts(for: viewer)))
    }

    static func overviewModel(_ c: RequestContext, _ query: OverviewQuery) throws -> OverviewModel {
        let result = try c.database.overview(filter(query))
        return OverviewModel(rows: result.items.map(row), matching: result.matching,
                             counts: Dictionary(uniqueKeysWithValues: result.counts.compactMap { k, v in
                                 DomainState(rawValue: k).map { ($0, v) } }),
                             query: query, now: c.nowEpoch)
    }

    static func filter(_ q: OverviewQuery) -> OverviewFilter {
        OverviewFilter(state: q.state?.rawValue, search: q.search, sort: q.sort.rawValue, descending: q.descending,
                       limit: q.pageSize, offset: (q.page - 1) * q.pageSize)
    }

    static func row(_ i: OverviewItem) -> OverviewRow {
        OverviewRow(id: i.id, host: i.host, displayHost: i.displayName, state: DomainState(rawValue: i.state) ?? .never,
                    reason: i.reason, lastCheck: i.lastCheckedAt.map(epoch), lastChange: i.lastChangedAt.map(epoch),
                    responseTimes: i.latencies.reversed().map { $0.map(Double.init) }, openAlerts: i.openAlerts)
    }

    static func epoch(_ d: Date) -> Int64 { Int64(d.timeIntervalSince1970) }

    static func newForm(_ c: RequestContext) throws -> WebResponse {
        var m = RegisterFormModel()
        m.intervalMinutes = try SettingsHandlers.defaultInterval(c.database)
        return .html(RegisterPage.render(m, viewer: try c.signedIn))
    }

    static func create(_ c: RequestContext) throws -> WebResponse {
        let viewer = try c.signedIn
        let (draft, model) = RegistrationInput.validate(RegistrationInput.fields(from: c.form), editing: nil,
                                                        configuration: c.configuration)
        guard let draft else { return .html(RegisterPage.render(model, viewer: viewer), status: 422) }
        switch try c.database.createDomain(draft) {
        case .created(let id):
            CrawlerWakeUp.notify(c.database)
            return .seeOther("/domains/\(id)")
        case .alreadyRegistered(let id):
            var m = model
            m.errors["host"] = "\(draft.displayName) is already registered."
            _ = id
            return .html(RegisterPage.render(m, viewer: viewer), status: 409)
        }
    }

    static func domainRecord(_ c: RequestContext) throws -> DomainRecord {
        guard let id = c.parameters.id("id"), let d = try c.database.domain(id: id) else {
            throw WebError.notFound("No domain with this id; it may have been deleted.")
        }
        return d
    }

    static func show(_ c: RequestContext) throws -> WebResponse {
        let d = try domainRecord(c)
        let model = try DomainPageBuilder.build(d, c: c)
        let flash = c.flash
        return c.showing(flash, .html(DomainPage.render(model, viewer: try c.signedIn, flash: flash)))
    }

    static func status(_ c: RequestContext) throws -> WebResponse {
        let d = try domainRecord(c)
        struct Status: Encodable {
            let checking: Bool
            let state: String
            let lastCheckedAt: Date?
        }
        let checking = d.isChecking(now: c.now) || d.lastCheckedAt == nil
        return APIResponses.json(Status(checking: checking, state: DomainState(verdict: d.lastVerdict, checking: checking).rawValue,
                                        lastCheckedAt: d.lastCheckedAt))
    }

    static func checkNow(_ c: RequestContext) throws -> WebResponse {
        let d = try domainRecord(c)
        try CrawlerWakeUp.requestCheck(c.database, domainID: d.id)
        return c.redirect("/domains/\(d.id)", flash: Flash(.info, "Check requested; it starts within seconds."))
    }

    static func editForm(_ c: RequestContext) throws -> WebResponse {
        let d = try domainRecord(c)
        var m = RegisterFormModel()
        m.editing = d.id
        m.host = d.displayName
        m.intervalMinutes = d.intervalSeconds / 60
        m.badge = d.badgeEnabled
        m.appIDs = try c.database.appIDExpectations(domainID: d.id).map { (AppService(rawValue: $0.service) ?? .applinks, $0.appID) }
        m.watched = try c.database.watchedURLs(domainID: d.id).map { ($0.url, $0.expectedAppID ?? "browser") }
        return .html(RegisterPage.render(m, viewer: try c.signedIn))
    }

    static func update(_ c: RequestContext) throws -> WebResponse {
        let d = try domainRecord(c)
        var (draft, model) = RegistrationInput.validate(RegistrationInput.fields(from: c.form), editing: (d.host, d.displayName),
                                                        configuration: c.configuration)
        model.editing = d.id
        model.host = d.displayName
        guard let draft else { return .html(RegisterPage.render(model, viewer: try c.signedIn), status: 422) }
        try saveEdit(id: d.id, draft, database: c.database)
        return c.redirect("/domains/\(d.id)", flash: Flash(.success, "Changes saved."))
    }

    /// Saves an edit (page or API) and re-measures the domain's state against the new expectations
    /// and its current file, so an app ID added that the file lacks shows as failing at once.
    static func saveEdit(id: Int64, _ draft: DomainDraft, database: Database) throws {
        try database.updateDomain(id: id, draft)
        // The edit is saved; a state that cannot be re-measured now is set right by the next check.
        _ = try? DomainStanding.reevaluate(domainID: id, in: database)
    }

    static func deleteConfirm(_ c: RequestContext) throws -> WebResponse {
        let d = try domainRecord(c)
        return .html(DomainPage.confirmDelete(id: d.id, displayHost: d.displayName, viewer: try c.signedIn))
    }

    static func delete(_ c: RequestContext) throws -> WebResponse {
        let d = try domainRecord(c)
        try c.database.deleteDomain(id: d.id)
        return c.redirect("/", flash: Flash(.success, "Deleted \(d.displayName) and its history."))
    }

    static func rawVersion(_ c: RequestContext) throws -> WebResponse {
        guard let hash = c.parameters["hash"], hash.count == 64, hash.allSatisfy(\.isHexDigit),
              let body = try c.database.versionBody(sha256: hash.lowercased()) else {
            throw WebError.notFound("No stored file with this hash.")
        }
        // Served as text so a browser shows it and never runs it, whatever it contains.
        return WebResponse(status: 200, headers: [("Content-Type", "text/plain; charset=utf-8"), ("X-Content-Type-Options", "nosniff"),
                                                  ("Cache-Control", "private, max-age=31536000, immutable")], body: body)
    }
}
