import AASA
import Foundation
import Store

/// The URL tester: a URL against a domain's stored file or a pasted one. It gets the store it reads —
/// domains and their stored files — not the whole database (Hummingbird's `TodoController<Repository>`, with the
/// repository as an existential so the handlers may declare their JSON types inside).
struct TesterHandlers: Sendable {
    let store: any DomainStore & CheckStore & Sendable

    func form(_ c: RequestContext) throws -> WebResponse {
        var m = TesterModel()
        m.domains = try testableDomains()
        m.domainID = c.query["domain"].flatMap(Int64.init)
        return .html(TesterPage.render(m, viewer: try c.signedIn))
    }

    func testableDomains() throws -> [(id: Int64, host: String)] {
        try store.listDomains(limit: 500).map { (Int64($0.id), $0.displayName) }
    }

    func run(_ c: RequestContext) throws -> WebResponse {
        var m = TesterModel()
        m.url = (c.form["url"] ?? "").trimmingCharacters(in: .whitespaces)
        m.pasted = c.form["aasa"] ?? ""
        m.domainID = c.form["domain"].flatMap(Int64.init)
        m.domains = try testableDomains()
        m.package = c.form["package"] ?? ""
        m.pastedAndroid = c.form["assetlinks"] ?? ""
        let outcome = try evaluate(url: m.url, pasted: m.pasted, domainID: m.domainID)
        // Android is asked only about a whole URL; the Apple side refuses anything else first.
        let android = m.url.hasPrefix("https://") || m.url.hasPrefix("http://")
            ? try evaluateAndroid(url: m.url, pasted: m.pastedAndroid, package: m.package, domainID: m.domainID) : nil
        switch android {
        case .success(let answer)?: m.android = answer
        case .failure(let e)?: m.androidMessage = e.message
        case nil: break
        }
        switch outcome {
        case .failure(let e) where m.android == nil || e.field == "url":
            m.errors[e.field ?? "url"] = e.message
            return .html(TesterPage.render(m, viewer: try c.signedIn), status: 422)
        case .failure(let e):
            // Android answered: Apple's side says in its column why it has none.
            m.appleMessage = e.message
            return .html(TesterPage.render(m, viewer: try c.signedIn))
        case .success(let r):
            m.source = r.source
            m.findings = r.findings
            m.outcomes = r.outcomes
            return .html(TesterPage.render(m, viewer: try c.signedIn))
        }
    }

    struct Result {
        var source: String
        var findings: [String]
        var outcomes: [TesterModel.AppOutcome]
        /// The app that opens the URL, nil for the browser.
        var opens: String?
    }

    struct Problem: Error {
        var message: String
        var field: String?
    }

    /// Shared by the page and the API.
    func evaluate(url: String, pasted: String, domainID: Int64?) throws -> Swift.Result<Result, Problem> {
        let db = store
        guard url.hasPrefix("https://") || url.hasPrefix("http://") else {
            return .failure(Problem(message: "Enter a whole URL, starting with https://", field: "url"))
        }
        var bytes: [UInt8]
        var source: String
        var domainHost: String?
        if !pasted.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            bytes = Array(pasted.utf8)
            source = "the pasted file"
        } else if let domainID, let d = try db.domain(id: domainID) {
            guard let checkID = d.lastCheckID, let check = try db.check(id: checkID), let sha = check.originVersionSHA256,
                  let body = try db.versionBody(VersionKey(.apple, sha256: sha)) else {
                return .failure(Problem(message: "\(d.displayName) has no stored file yet; paste one or wait for its first check.", field: "domain"))
            }
            bytes = body
            source = "the current file of \(d.displayName) (version \(sha.prefix(12)))"
            domainHost = d.host
        } else {
            return .failure(Problem(message: "Choose a registered domain or paste a file.", field: "aasa"))
        }
        let report = AASAValidator.validate(bytes)
        guard let document = report.document else {
            let first = report.sortedFindings.first?.message ?? "it is not an association file"
            return .failure(Problem(message: "The file cannot be read: \(first)", field: "aasa"))
        }
        let compiled = CompiledDocument(document)
        let winners = compiled.apps(for: url)
        var outcomes: [TesterModel.AppOutcome] = []
        for appID in compiled.appIDs {
            let e = compiled.explain(url: url, appID: appID, domain: domainHost)
            var steps: [TesterModel.Step] = []
            for t in e.trace {
                let verdict = t.matched ? (t.exclude ? "matches and excludes" : "matches") : "does not match"
                steps.append(.init(text: "\(t.name): \(t.text) \(verdict)", location: t.location.description,
                                   decides: t == e.decidingRule))
            }
            let opens = winners.first?.appID == appID
            var reason = e.summary
            if case .match = e.decision, !opens, let first = winners.first {
                reason += " But \(first.appID) comes earlier in the file and takes the URL."
            }
            outcomes.append(.init(appID: appID, opens: opens, reason: reason, steps: steps))
        }
        let findings = report.sortedFindings.filter { $0.severity == .error || $0.severity == .warning }.prefix(10)
            .map { "\($0.severity.rawValue): \($0.message)" }
        return .success(Result(source: source, findings: Array(findings), outcomes: outcomes, opens: winners.first?.appID))
    }
}
