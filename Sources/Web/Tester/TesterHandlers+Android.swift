import AssetLinks
import Foundation
import Monitor
import Store
import Vocabulary

/// The URL tester's Android answer (issue #13): which app a URL opens by the domain's stored
/// assetlinks.json (or a pasted one), on Android 15+ by the dynamic rules, and before Android 15
/// (every path of a verified host), decided by the AssetLinks core's matcher. Against a registered
/// domain's file, an expected app is asked with its expected keys (app-signing keys first), as the
/// pipeline judges its watched URLs (`AndroidWatchedURLs`): a URL opens an app only for a key listed.
extension TesterHandlers {
    /// nil when there is no assetlinks.json to test against (none pasted, none stored for the domain).
    func evaluateAndroid(url: String, pasted: String, package: String, registered: RegisteredFile?) throws -> Swift.Result<TesterModel.AndroidAnswer, Problem>? {
        let given: File<AssetLinksFile>
        var keys: [String: [String]] = [:]
        if !pasted.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            let report = AssetLinksValidator.validate(Array(pasted.utf8))
            given = File(document: report.file, findings: report.findings, source: "the pasted assetlinks.json")
        } else if let d = registered?.domain, d.platforms.watches(.android), let check = registered?.latest, let sha = check.androidVersionSHA256,
                  let document = try documents.document(VersionKey(.android, sha256: sha), read: { try StoredVersions.androidDocument(sha, in: store) }) {
            // The stored reading's document, as the domain page's Android panel reads it: the bytes are not parsed again.
            given = File(document: document,
                         findings: Self.fileFindings(check.android?.findings ?? [], definition: AndroidFindingCatalog.definition(for:)),
                         source: "the current assetlinks.json of \(d.displayName) (version \(sha.prefix(12)))")
            keys = AndroidResult.keys(try store.androidExpectations(domainIDs: [d.id]).map(\.app))
        } else {
            return nil
        }
        guard let file = given.document else {
            let first = given.findings.first?.message ?? "it is not a statement list"
            return .failure(Problem(message: "The assetlinks.json cannot be read: \(first)", field: "assetlinks"))
        }
        let typed = package.trimmingCharacters(in: .whitespaces)
        // The package asked about, else every app the file grants handle_all_urls.
        let packages = typed.isEmpty
            ? file.packageNames.filter { !file.statements(granting: Relation.handleAllURLs, to: $0).isEmpty }
            : [typed]
        let matcher = AppLinkMatcher(file)
        let parsed = AndroidURL(url)
        let apps = packages.map { name -> TesterModel.AndroidAppAnswer in
            // Explained for the key that opens it, else the first (the app-signing key); any key without expected ones.
            let fingerprints: [String?] = keys[name].map { $0.map { Optional($0) } } ?? [nil]
            func explain(_ version: Int) -> AppLinkExplanation {
                let tries = fingerprints.map { matcher.explain(parsed, packageName: name, fingerprint: $0, androidVersion: version) }
                return tries.first { $0.decision.opensApp } ?? tries[0]
            }
            let current = explain(AppLinkMatcher.firstDynamicRulesVersion)
            let older = explain(AppLinkMatcher.firstDynamicRulesVersion - 1)
            let steps = (current.rules?.trace ?? []).map { tried in
                TesterModel.Step(text: "Rule \(tried.rule + 1): \(tried.text) \(tried.matched ? (tried.exclude ? "matches and excludes" : "matches") : "does not match")",
                                 decides: tried.rule == current.rules?.decidingRule)
            }
            return .init(packageName: name, opensDynamic: current.decision.opensApp, dynamicReason: current.summary,
                         opensOlder: older.decision.opensApp, olderReason: older.summary, steps: steps)
        }
        return .success(.init(source: given.source, apps: apps, findings: Self.shown(given.findings)))
    }
}
