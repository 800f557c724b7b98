import Foundation
import Monitor
import Registry
import Store

/// The by-app overview, the app form with its import preview, the app page, delete. Every change
/// goes through `AppRegistry`.
enum AppHandlers {
    static func list(_ c: RequestContext, store: any AppStore) throws -> WebResponse {
        let viewer = try c.signedIn
        let flash = c.flash
        return c.showing(flash, .html(AppPages.list(try AppSummary.load(from: store), canChange: viewer.canChange, viewer: viewer, flash: flash)))
    }

    static func newForm(_ c: RequestContext) throws -> WebResponse {
        // POST: "Back to the form" from the preview, with what was typed.
        .html(AppPages.form(c.request.method == "POST" ? AppFormFields(c.form) : AppFormFields(), viewer: try c.signedIn))
    }

    /// Reads the fields and files into a plan, or the form again with every problem beside its field.
    static func planned(_ c: RequestContext, _ fields: AppFormFields) throws -> Result<AppPlan, AppRegistrationError> {
        do {
            return .success(try c.appRegistry.plan(fields.registration, entitlements: try AppFormFields.fileBytes(fields.entitlements),
                                                   manifest: try AppFormFields.fileBytes(fields.manifest)))
        } catch let refusal as AppRegistrationError {
            return .failure(refusal)
        }
    }

    static func preview(_ c: RequestContext) throws -> WebResponse {
        let viewer = try c.signedIn
        let fields = AppFormFields(c.form)
        switch try planned(c, fields) {
        case .success(let plan): return .html(AppPages.preview(plan, fields: fields, viewer: viewer))
        case .failure(let refusal): return .html(AppPages.form(fields, problems: refusal.problems, viewer: viewer), status: status(refusal))
        }
    }

    static func create(_ c: RequestContext) throws -> WebResponse {
        let viewer = try c.signedIn
        let fields = AppFormFields(c.form)
        do {
            switch try planned(c, fields) {
            case .success(let plan):
                let id = try c.appRegistry.register(plan)
                let new = plan.domains.filter(\.isNew).count
                return c.redirect("/apps/\(id)", flash: Flash(.success,
                    "Registered \(plan.draft.name) with \(plan.domains.count) domain\(plan.domains.count == 1 ? "" : "s") (\(new) new; their first checks start now)."))
            case .failure(let refusal):
                return .html(AppPages.form(fields, problems: refusal.problems, viewer: viewer), status: status(refusal))
            }
        } catch let refusal as AppRegistrationError {
            return .html(AppPages.form(fields, problems: refusal.problems, viewer: viewer), status: status(refusal))
        }
    }

    static func status(_ refusal: AppRegistrationError) -> Int {
        switch refusal {
        case .nameTaken: 409
        case .noSuchApp: 404
        case .invalid: 422
        }
    }

    /// The app the path names, by id or name (`/apps/12`, `/apps/Shop`).
    static func appRecord(_ c: RequestContext) throws -> AppRecord {
        guard let app = try c.appRegistry.app(addressed: c.parameters["id"]) else {
            throw WebError.notFound("No app with this id or name; it may have been deleted.")
        }
        return app
    }

    // MARK: edit: the form filled from the stored app, a preview of the change, then the write.

    static func editForm(_ c: RequestContext) throws -> WebResponse {
        let app = try appRecord(c)
        guard let stored = try c.appRegistry.registration(appID: app.id) else { throw WebError.notFound("No app with this id or name.") }
        return .html(AppPages.form(AppFormFields(stored), editing: app, viewer: try c.signedIn))
    }

    /// Reads the fields and files into an edit's plan, or the refusal.
    static func plannedEdit(_ c: RequestContext, _ app: AppRecord, _ fields: AppFormFields) throws -> Result<AppPlan, AppRegistrationError> {
        do {
            return .success(try c.appRegistry.planEdit(appID: app.id, fields.registration,
                                                       entitlements: try AppFormFields.fileBytes(fields.entitlements),
                                                       manifest: try AppFormFields.fileBytes(fields.manifest)))
        } catch let refusal as AppRegistrationError {
            return .failure(refusal)
        }
    }

    static func editPreview(_ c: RequestContext) throws -> WebResponse {
        let viewer = try c.signedIn
        let app = try appRecord(c)
        let fields = AppFormFields(c.form)
        switch try plannedEdit(c, app, fields) {
        case .success(let plan): return .html(AppPages.preview(plan, fields: fields, editing: app, viewer: viewer))
        case .failure(let refusal): return .html(AppPages.form(fields, editing: app, problems: refusal.problems, viewer: viewer), status: status(refusal))
        }
    }

    /// Saves what the preview showed; "Back to the form" (the preview's `back` button) shows the form
    /// again with what was typed.
    static func update(_ c: RequestContext) throws -> WebResponse {
        let viewer = try c.signedIn
        let app = try appRecord(c)
        let fields = AppFormFields(c.form)
        if c.form["back"] != nil { return .html(AppPages.form(fields, editing: app, viewer: viewer)) }
        do {
            switch try plannedEdit(c, app, fields) {
            case .success(let plan):
                try c.appRegistry.edit(appID: app.id, plan)
                let new = plan.domains.filter(\.isNew).count
                let registered: String = new == 0 ? "" : " \(new) new domain\(new == 1 ? "" : "s") registered; their first checks start now."
                return c.redirect("/apps/\(app.id)", flash: Flash(.success, "Saved \(plan.draft.name).\(registered)"))
            case .failure(let refusal):
                return .html(AppPages.form(fields, editing: app, problems: refusal.problems, viewer: viewer), status: status(refusal))
            }
        } catch let refusal as AppRegistrationError {
            return .html(AppPages.form(fields, editing: app, problems: refusal.problems, viewer: viewer), status: status(refusal))
        }
    }

    static func show(_ c: RequestContext, store: any AppStore & CheckStore & AlertStore) throws -> WebResponse {
        let app = try appRecord(c)
        let page = max(1, min(Int(c.query["page"] ?? "") ?? 1, 100_000))
        guard let matrix = try AppMatrix.load(appID: app.id, from: store, now: c.now, window: .page(page)) else {
            throw WebError.notFound("No app with this id; it may have been deleted.")
        }
        // The open alerts of every domain the app claims, not only the page's.
        let domains = Set(matrix.domainIDs)
        let alerts = try store.alertList(open: true, limit: 500).filter { domains.contains($0.domainID) }
        let flash = c.flash
        return c.showing(flash, .html(AppPages.show(matrix, alerts: alerts, now: c.now, viewer: try c.signedIn, flash: flash)))
    }

    /// "Check now" for every domain the app claims, through the registry's one statement.
    static func checkNow(_ c: RequestContext) throws -> WebResponse {
        let app = try appRecord(c)
        let flagged = try c.registry.requestCheck(appID: app.id)
        let message = flagged == 0 ? "\(app.name) claims no domain yet: nothing to check."
            : "Check requested for \(flagged) domain\(flagged == 1 ? "" : "s") of \(app.name); they start within seconds."
        return c.redirect("/apps/\(app.id)", flash: Flash(flagged == 0 ? .info : .success, message))
    }

    static func deleteConfirm(_ c: RequestContext) throws -> WebResponse {
        .html(AppPages.confirmDelete(try appRecord(c), viewer: try c.signedIn))
    }

    static func delete(_ c: RequestContext) throws -> WebResponse {
        let app = try appRecord(c)
        try c.appRegistry.delete(appID: app.id)
        return c.redirect("/apps", flash: Flash(.success, "Deleted \(app.name); its domains stay registered."))
    }
}
