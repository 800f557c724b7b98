import Vocabulary
import AASA
import Foundation
import Monitor
import Registry
import Store

/// Overview, register, domain page, edit, delete, check now.
enum DomainHandlers {
    static func overview(_ c: RequestContext, store: any DomainStore) throws -> WebResponse {
        let viewer = try c.signedIn
        let query = OverviewFilter(c.query)
        let flash = c.flash
        // Per role (the register button) and normalised query; the rest of the page is the same for
        // everyone. The per-user header is rendered per request by `SharedPage`.
        let key = (viewer.canChange ? "change " : "look ") + query.link(page: query.page, after: query.after, before: query.before)
        let changes = c.changes
        let page = try c.overviewCache.value(key, generation: { changes.dataGeneration },
                                                 staleFloor: { changes.dataFloor }, cacheable: changes.isLive && flash == nil) {
            try OverviewPage.shared(overviewModel(c, store: store, query), canChange: viewer.canChange, flash: flash)
        }
        return c.showing(flash, .html(parts: page.parts(for: viewer)))
    }

    static func overviewModel(_ c: RequestContext, store: any DomainStore, _ query: OverviewFilter) throws -> OverviewModel {
        let result = try store.overview(query)
        return OverviewModel(rows: result.items, matching: result.matching, matchingCapped: result.matchingCapped,
                             counts: result.counts, firstChecks: try store.firstCheckProgress(),
                             query: query, now: c.nowEpoch)
    }

    static func epoch(_ d: Date) -> Int64 { Int64(d.timeIntervalSince1970) }

    static func newForm(_ c: RequestContext) throws -> WebResponse {
        var m = RegisterFormModel()
        m.intervalMinutes = try c.registry.defaultIntervalMinutes()
        return .html(RegisterPage.render(m, viewer: try c.signedIn))
    }

    static func create(_ c: RequestContext) throws -> WebResponse {
        let viewer = try c.signedIn
        let fields = RegistrationInput.fields(from: c.form)
        do {
            let id = try c.registry.register(RegistrationInput.registration(fields))
            return .seeOther("/domains/\(id)")
        } catch let refusal as RegistrationError {
            let model = RegistrationInput.model(fields, errors: refusal.fieldMessages, editing: nil)
            let status = if case .alreadyRegistered = refusal { 409 } else { 422 }
            return .html(RegisterPage.render(model, viewer: viewer), status: status)
        }
    }

    /// The domain the path names, by id or by host (`/domains/42`, `/domains/example.com`).
    static func domainRecord(_ c: RequestContext, store: any DomainStore) throws -> DomainRecord {
        guard let d = try DomainAddress.record(c.parameters["id"], in: store) else {
            throw WebError.notFound("No domain with this id or host; it may have been deleted.")
        }
        return d
    }

    static func show(_ c: RequestContext, store: any DomainStore & CheckStore & SettingsStore) throws -> WebResponse {
        let d = try domainRecord(c, store: store)
        var model = try DomainPageBuilder.build(d, c: c, store: store)
        model.alerting = try store.alertTuning().opening
        let flash = c.flash
        return c.showing(flash, .html(DomainPage.render(model, viewer: try c.signedIn, flash: flash)))
    }

    static func status(_ c: RequestContext, store: any DomainStore) throws -> WebResponse {
        let d = try domainRecord(c, store: store)
        struct Status: Encodable {
            let checking: Bool
            let state: String
            let lastCheckedAt: Date?
        }
        let checking = d.isChecking(now: c.now) || d.lastCheckedAt == nil
        return APIResponses.json(Status(checking: checking, state: DomainState(verdict: d.lastVerdict, checking: checking).rawValue,
                                        lastCheckedAt: d.lastCheckedAt))
    }

    static func checkNow(_ c: RequestContext, store: any DomainStore) throws -> WebResponse {
        let d = try domainRecord(c, store: store)
        if d.paused { return c.redirect("/domains/\(d.id)", flash: Flash(.info, "The domain is paused: resume it to check it.")) }
        try c.registry.requestCheck(domainID: d.id)
        return c.redirect("/domains/\(d.id)", flash: Flash(.info, "Check requested; it starts within seconds."))
    }

    static func pause(_ c: RequestContext, store: any DomainStore) throws -> WebResponse {
        let d = try domainRecord(c, store: store)
        try c.registry.setPaused(domainID: d.id, true)
        return c.redirect("/domains/\(d.id)", flash: Flash(.info, "Paused: no checks and no alert changes until it is resumed."))
    }

    static func resume(_ c: RequestContext, store: any DomainStore) throws -> WebResponse {
        let d = try domainRecord(c, store: store)
        try c.registry.setPaused(domainID: d.id, false)
        return c.redirect("/domains/\(d.id)", flash: Flash(.info, "Resumed; its check starts within seconds."))
    }

    static func editForm(_ c: RequestContext, store: any DomainStore) throws -> WebResponse {
        let d = try domainRecord(c, store: store)
        var m = RegisterFormModel()
        m.editing = d.id
        m.host = d.displayName
        m.intervalMinutes = d.intervalSeconds / 60
        m.badge = d.badgeEnabled
        m.platforms = d.platforms
        m.appIDs = try store.appIDExpectations(domainID: d.id).map { ($0.service, $0.appID) }
        m.watched = try store.watchedURLs(domainID: d.id).map { ($0.url, $0.expectedAppID ?? "browser", $0.android?.rawValue ?? "") }
        m.android = try store.androidAppExpectations(domainID: d.id).map { app in
            (app.packageName, app.fingerprints.map { app.uploadKeys.contains($0) ? $0 + AndroidAppEntry.uploadMark : $0 }.joined(separator: " "))
        }
        return .html(RegisterPage.render(m, viewer: try c.signedIn))
    }

    static func update(_ c: RequestContext, store: any DomainStore) throws -> WebResponse {
        let d = try domainRecord(c, store: store)
        let fields = RegistrationInput.fields(from: c.form)
        do {
            try c.registry.edit(domainID: d.id, RegistrationInput.registration(fields))
            return c.redirect("/domains/\(d.id)", flash: Flash(.success, "Changes saved."))
        } catch let refusal as RegistrationError {
            if case .noSuchDomain = refusal { throw WebError.notFound("No domain with this id; it may have been deleted.") }
            let model = RegistrationInput.model(fields, errors: refusal.fieldMessages, editing: d)
            return .html(RegisterPage.render(model, viewer: try c.signedIn), status: 422)
        }
    }

    static func deleteConfirm(_ c: RequestContext, store: any DomainStore) throws -> WebResponse {
        let d = try domainRecord(c, store: store)
        return .html(DomainPage.confirmDelete(id: d.id, displayHost: d.displayName, viewer: try c.signedIn))
    }

    static func delete(_ c: RequestContext, store: any DomainStore) throws -> WebResponse {
        let d = try domainRecord(c, store: store)
        try c.registry.delete(domainID: d.id)
        return c.redirect("/", flash: Flash(.success, "Deleted \(d.displayName) and its history."))
    }
}
