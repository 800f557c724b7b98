import AASA
import Fetch
import Foundation
import Monitor
import Store
import Vocabulary

/// The URL tester: a URL against a domain's stored file or a pasted one. It gets the store it reads —
/// domains and their stored files — not the whole database (Hummingbird's `TodoController<Repository>`, with the
/// repository as an existential so the handlers may declare their JSON types inside).
struct TesterHandlers: Sendable {
    let store: any DomainStore & CheckStore & Sendable
    let documents: RecentDocuments

    func form(_ c: RequestContext) throws -> WebResponse {
        var m = TesterModel()
        m.domainID = c.query["domain"].flatMap(Int64.init)
        m.find = (c.query["find"] ?? "").trimmingCharacters(in: .whitespaces)
        m.url = c.query["url"] ?? ""
        m.domains = try choices(find: m.find, chosen: m.domainID)
        return .html(TesterPage.render(m, viewer: try c.signedIn))
    }

    /// How many domains the chooser offers: a search narrows them, it never lists every domain.
    static let choiceLimit = 20

    /// The domains the chooser offers: a few whose host or name contains `find` (through
    /// `domain_names`' trigram indexes, so a million domains are never all read), or, for one or two
    /// characters, which no trigram narrows, those whose name starts with them; else the first by
    /// name. The chosen one comes first when it is not among them.
    func choices(find: String, chosen: Int64?) throws -> [(id: Int64, host: String)] {
        let listed: [DomainListItem]
        switch find.count {
        case 0: listed = try store.listDomains(limit: Self.choiceLimit)
        case 1, 2: listed = try store.domains(namePrefix: find, limit: Self.choiceLimit)
        default: listed = try store.domains(nameContaining: find, limit: Self.choiceLimit)
        }
        var found = listed.map { (id: Int64($0.id), host: $0.displayName) }
        if let chosen, !found.contains(where: { $0.id == chosen }), let d = try store.domain(id: chosen) {
            found.insert((chosen, d.displayName), at: 0)
        }
        return found
    }

    func run(_ c: RequestContext) throws -> WebResponse {
        var m = TesterModel()
        m.url = (c.form["url"] ?? "").trimmingCharacters(in: .whitespaces)
        m.pasted = c.form["aasa"] ?? ""
        // No domain chosen: the URL's own (the select then shows which one answered).
        m.domainID = try domainID(chosen: c.form["domain"].flatMap(Int64.init), url: m.url)
        m.domains = try choices(find: "", chosen: m.domainID)
        m.package = c.form["package"] ?? ""
        m.pastedAndroid = c.form["assetlinks"] ?? ""
        let registered = try registeredFile(m.domainID)
        let outcome = try evaluate(url: m.url, pasted: m.pasted, registered: registered)
        // Android is asked only about a whole URL; the Apple side refuses anything else first.
        let android = m.url.hasPrefix("https://") || m.url.hasPrefix("http://")
            ? try evaluateAndroid(url: m.url, pasted: m.pastedAndroid, package: m.package, registered: registered) : nil
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

    /// A registered domain with its latest check: where both platforms' stored files are found, read
    /// once for the two answers.
    struct RegisteredFile {
        var domain: DomainRecord
        var latest: CheckRow?
    }

    /// The domain whose file decides `url`: the one chosen, else the registered domain of the URL's
    /// host, else the nearest wildcard registration above it (`*.shop.example` is served from
    /// shop.example's file and covers www.shop.example). Nil when none is chosen and none is registered.
    func domainID(chosen: Int64?, url: String) throws -> Int64? {
        if let chosen { return chosen }
        guard let host = URLParts(parsing: url).host, let name = try? HostName(host) else { return nil }
        if let exact = try store.domainID(host: name.ascii, wildcard: false) { return exact }
        var labels = name.ascii.split(separator: ".")
        while labels.count >= 2 {
            if let covering = try store.domainID(host: labels.joined(separator: "."), wildcard: true) { return covering }
            labels.removeFirst()
        }
        return nil
    }

    /// nil when no domain is chosen or it is not registered (any more).
    func registeredFile(_ domainID: Int64?) throws -> RegisteredFile? {
        guard let domainID, let d = try store.domain(id: domainID) else { return nil }
        return RegisteredFile(domain: d, latest: try d.lastCheckID.flatMap { try store.check(id: $0) })
    }

    /// A file the tester asks, as its platform's core understood it.
    struct File<Document> {
        /// nil when the core cannot read the file.
        var document: Document?
        /// The file's own problems (its reader's and validator's), most severe first.
        var findings: [Finding]
        var source: String
    }

    /// What a check found in its file itself, not in how it was served (transport, Apple's CDN, the
    /// comparisons) or in what was expected of it: the findings whose producer is the platform's
    /// reader or validator, most severe first — what validating the stored bytes again would say.
    static func fileFindings(_ findings: [Finding], definition: (String) -> FindingDefinition?) -> [Finding] {
        let producers: Set<Substring> = ["parser", "reader", "validator"]
        return findings.enumerated().filter { _, f in
            definition(f.code)?.producer.split(separator: ",").contains { producers.contains($0.drop { $0 == " " }) } ?? false
        }.sorted { ($0.element.severity, $0.offset) < ($1.element.severity, $1.offset) }.map(\.element)
    }

    /// Shared by the page and the API. A pasted file is read here; a registered domain's is its stored
    /// reading's document (`StoredVersions`, as the domain page reads it), so its bytes are never parsed
    /// again, and decoded once for a run of questions (`RecentDocuments`).
    func evaluate(url: String, pasted: String, registered: RegisteredFile?) throws -> Swift.Result<Result, Problem> {
        let db = store
        guard url.hasPrefix("https://") || url.hasPrefix("http://") else {
            return .failure(Problem(message: "Enter a whole URL, starting with https://", field: "url"))
        }
        let file: File<AASADocument>
        var domainHost: String?
        if !pasted.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            let report = AASAValidator.validate(Array(pasted.utf8))
            file = File(document: report.document, findings: report.sortedFindings, source: "the pasted file")
        } else if let registered {
            let d = registered.domain
            guard let check = registered.latest, let sha = check.originVersionSHA256,
                  let document = try documents.document(VersionKey(.apple, sha256: sha), read: { try StoredVersions.appleDocument(sha, in: db) }) else {
                return .failure(Problem(message: "\(d.displayName) has no stored file yet; paste one or wait for its first check.", field: "domain"))
            }
            file = File(document: document, findings: Self.fileFindings(check.findings, definition: FindingCatalog.definition(for:)),
                        source: "the current file of \(d.displayName) (version \(sha.prefix(12)))")
            domainHost = d.host
        } else {
            return .failure(Problem(message: "Choose a registered domain or paste a file.", field: "aasa"))
        }
        guard let document = file.document else {
            let first = file.findings.first?.message ?? "it is not an association file"
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
        return .success(Result(source: file.source, findings: Self.shown(file.findings), outcomes: outcomes, opens: winners.first?.appID))
    }

    /// The errors and warnings the tester lists under its answer, at most ten.
    static func shown(_ findings: [Finding]) -> [String] {
        findings.filter { $0.severity == .error || $0.severity == .warning }.prefix(10).map { "\($0.severity.rawValue): \($0.message)" }
    }
}
