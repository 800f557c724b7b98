import Foundation
import Registry
import Store

/// The overview's bulk actions (ask, then apply) and the browser import (preview, then register).
/// Admin only: the routes say so, so a read-only viewer gets 403 before any of this runs.
enum BulkHandlers {
    /// The most ids one request may tick: a page holds 50; "all matching" sends none.
    static let maxIDs = 500

    /// The choice a bulk form sends: the action, the domains (the ticked ids, or all the filter
    /// matches), the new interval, and the overview to go back to. nil, with why, when incomplete.
    struct Choice {
        var action: BulkAction
        var selection: DomainSelection
        var intervalMinutes: Int?
        var back: String
        /// The fields that repeat this choice in the confirmation's form.
        var carried: [(String, String)]

        /// Why a form is not a choice yet, as the banner says it.
        struct Incomplete: Error { let reason: String }

        static func read(_ form: FormData) -> Result<Choice, Incomplete> {
            let filter = OverviewFilter(form)
            // Back to the page the choice came from, its filter and order; the first page of it.
            let back = filter.link(page: 1)
            guard let action = form["action"].flatMap(BulkAction.init(rawValue:)) else { return .failure(Incomplete(reason: "Choose an action.")) }
            var carried: [(String, String)] = [("action", action.rawValue)]
            let interval = action == .setInterval ? form["interval"].flatMap { Int($0) } : nil
            if let interval { carried.append(("interval", String(interval))) }
            let selection: DomainSelection
            if form["all"] == "1" {
                selection = .matching(filter)
                carried.append(("all", "1"))
            } else {
                let ids = Array(Set(form.all("id").compactMap { Int64($0) }).sorted().prefix(maxIDs))
                guard !ids.isEmpty else { return .failure(Incomplete(reason: "Tick the domains to change, or choose all that match the filter.")) }
                selection = .ids(ids)
                carried += ids.map { ("id", String($0)) }
            }
            for (name, value) in [("state", filter.state?.rawValue), ("platform", filter.platform?.rawValue),
                                  ("q", filter.search.isEmpty ? nil : filter.search),
                                  ("sort", filter.sort == .state ? nil : filter.sort.rawValue), ("dir", filter.descending ? "desc" : nil)] {
                if let value { carried.append((name, value)) }
            }
            return .success(Choice(action: action, selection: selection, intervalMinutes: interval, back: back, carried: carried))
        }
    }

    /// GET /domains/bulk: "Pause 37 domains?" (from the overview's form, which sends no CSRF token:
    /// this page changes nothing).
    static func confirm(_ c: RequestContext) throws -> WebResponse {
        // A page's 50 ticked ids are more fields than an ordinary query may hold (`Limits.query`):
        // this one is read with a form's limits.
        let query = (try? FormData.decode(Array(c.request.query.utf8), limits: .form)) ?? FormData()
        let choice: Choice
        switch Choice.read(query) {
        case .failure(let why): return c.redirect(OverviewFilter(query).link(page: 1), flash: Flash(.error, why.reason))
        case .success(let read): choice = read
        }
        let count = try c.registry.count(choice.selection)
        guard count > 0 else { return c.redirect(choice.back, flash: Flash(.info, "No domain matches this choice now; nothing was changed.")) }
        let interval = choice.action == .setInterval
            ? Registration.offeredIntervals.first { $0.minutes == choice.intervalMinutes }?.label : nil
        if choice.action == .setInterval, interval == nil {
            return c.redirect(choice.back, flash: Flash(.error, "Choose one of the offered intervals."))
        }
        let names = try c.registry.names(choice.selection, limit: 50)
        return .html(BulkPages.confirm(choice.action, count: count, names: names, intervalLabel: interval, carried: choice.carried,
                                       back: choice.back, viewer: try c.signedIn))
    }

    /// POST /domains/bulk (CSRF): applies the confirmed choice in one statement and says what it did.
    static func apply(_ c: RequestContext) throws -> WebResponse {
        let choice: Choice
        switch Choice.read(c.form) {
        case .failure(let why): return c.redirect("/", flash: Flash(.error, why.reason))
        case .success(let read): choice = read
        }
        let change: BulkChange
        do {
            change = try c.registry.perform(choice.action, on: choice.selection, intervalMinutes: choice.intervalMinutes)
        } catch is RegistrationError {
            return c.redirect(choice.back, flash: Flash(.error, "Choose one of the offered intervals."))
        }
        return c.redirect(choice.back, flash: Flash(.success, done(choice, change)))
    }

    /// "Paused 35 domains. 2 were paused already."
    static func done(_ choice: Choice, _ change: BulkChange) -> String {
        let rest = change.selected - change.changed
        let interval = Registration.offeredIntervals.first { $0.minutes == choice.intervalMinutes }?.label ?? ""
        let unchanged: String = switch choice.action {
        case .checkNow: rest == 1 ? "1 paused domain was left alone." : "\(rest) paused domains were left alone."
        case .pause: rest == 1 ? "1 was paused already." : "\(rest) were paused already."
        case .resume: rest == 1 ? "1 was not paused." : "\(rest) were not paused."
        case .setInterval: rest == 1 ? "1 had it already." : "\(rest) had it already."
        case .delete: rest == 1 ? "1 was gone already." : "\(rest) were gone already."
        }
        let what = choice.action == .setInterval ? " to " + interval : choice.action == .delete ? " and their history" : ""
        return "\(choice.action.done) \(BulkPages.domains(change.changed))\(what)." + (rest > 0 ? " " + unchanged : "")
    }

    /// GET /domains/import
    static func importForm(_ c: RequestContext) throws -> WebResponse {
        .html(BulkPages.importForm(viewer: try c.signedIn))
    }

    /// The list a form sends: an uploaded file's text, else the pasted text.
    static func list(_ form: FormData) -> String {
        if let file = form.file("file"), !file.bytes.isEmpty { return String(decoding: file.bytes, as: UTF8.self) }
        return form["list"] ?? ""
    }

    /// POST /domains/import/preview: what the list would do, line by line; writes nothing.
    static func importPreview(_ c: RequestContext) throws -> WebResponse {
        let viewer = try c.signedIn
        let text = list(c.form)
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            return .html(BulkPages.importForm(viewer: viewer, problem: "Paste a list or choose a file."), status: 422)
        }
        return .html(BulkPages.importPreview(try c.registry.previewImport(text), text: text, viewer: viewer))
    }

    /// POST /domains/import: registers the previewed list (`importList`, as the CLI's `import`).
    static func importList(_ c: RequestContext) throws -> WebResponse {
        let report = try c.registry.importList(list(c.form))
        var message = "Imported \(BulkPages.domains(report.added.count))"
        if !report.skipped.isEmpty { message += "; \(report.skipped.count) registered already" }
        if !report.refused.isEmpty { message += "; \(report.refused.count) refused" }
        return c.redirect("/", flash: Flash(.success, message + ". Their first checks run as workers have room."))
    }
}
