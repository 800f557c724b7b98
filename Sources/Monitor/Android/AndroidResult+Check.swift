import AssetLinks
import Fetch
import Foundation
import Vocabulary

extension AndroidResult {
    /// The stored result of one Android check (`Fetcher.checkAndroid`) measured against the apps the
    /// domain expects and the URLs watched on Android. `sha256` is the hex digest (libsodium in
    /// production), injected to keep this pure.
    public init(check: AndroidCheck, expectations: [AndroidAppExpectation], watchedURLs: [WatchedURL] = [],
                sha256: ([UInt8]) -> String) {
        let report = check.report
        let identities = Self.identities(report.file ?? AssetLinksFile(), expectations: expectations)
        let origin = check.origin
        let served = report.serves && !origin.bodyTruncated
        self.init(verdict: report.verdict, serves: report.serves, versionSHA256: served ? sha256(origin.body) : nil,
                  findings: report.findings, identities: identities,
                  google: check.google.map { answer in
                      var verdict = GoogleVerdict(answer: answer, findings: report.findings)
                      verdict.matchesOrigin = report.googleDiff.map(\.isBehaviourallyEqual)
                      return verdict
                  }, probedAt: check.finishedAt,
                  watchedURLs: AndroidWatchedURLs.evaluate(watchedURLs, file: report.file, keys: Self.keys(expectations)))
        if let sha = versionSHA256, let file = report.file {
            servedGrants = Self.grants(file, own: report.document?.file, sha256: sha)
        }
    }

    /// What `file` (the statements Google honours, the includes' too) grants apps, and which elements
    /// of the origin's own list (`own`) Google drops as invalid.
    static func grants(_ file: AssetLinksFile, own: AssetLinksFile?, sha256: String) -> AndroidFileGrants {
        let grants = file.statements.flatMap { statement -> [AndroidGrant] in
            guard let package = statement.packageName else { return [] }
            return statement.relations.flatMap { relation in
                statement.fingerprints.map { AndroidGrant(packageName: package, relation: relation, fingerprint: $0) }
            }
        }
        let kept = Set((own?.statements.map(\.index) ?? []) + (own?.includes.map(\.index) ?? []))
        let dropped = own.map { own in (0..<own.elementCount).filter { !kept.contains($0) } } ?? []
        return AndroidFileGrants(versionSHA256: sha256, grants: grants, droppedStatements: dropped)
    }

    /// Each expected package's keys, app-signing keys before upload keys (what Play installs is signed
    /// with the former), for judging watched URLs as the app's builds see them (the URL tester asks
    /// with the same keys, so it answers as the pipeline judges).
    public static func keys(_ expectations: [AndroidAppExpectation]) -> [String: [String]] {
        Dictionary(expectations.map { app in
            let upload = Set(app.uploadKeys)
            return (app.packageName, app.fingerprints.filter { !upload.contains($0) } + app.fingerprints.filter(upload.contains))
        }, uniquingKeysWith: { first, _ in first })
    }

    /// What `file` grants each expected app's package (`handle_all_urls` per expected fingerprint).
    static func identities(_ file: AssetLinksFile, expectations: [AndroidAppExpectation]) -> [AndroidIdentityResult] {
        expectations.map { app in
            let granted = Set(file.statements(granting: Relation.handleAllURLs, to: app.packageName).flatMap(\.fingerprints))
            return AndroidIdentityResult(packageName: app.packageName, expectedFingerprints: app.fingerprints, uploadKeys: app.uploadKeys,
                                         named: file.packageNames.contains(app.packageName),
                                         grantedFingerprints: app.fingerprints.filter(granted.contains), grantsHandleAllURLs: !granted.isEmpty)
        }
    }

    /// This result measured again against new expectations, on the file it was taken from (`file`: the
    /// statement list the origin served, as stored; nil when it served none), without a new fetch: the
    /// findings about the expected apps, the identities and the watched URLs are measured anew; the
    /// transport, the document and Google's answer stay as the check saw them.
    public func remeasured(file: AssetLinksFile?, url: String, expectations: [AndroidAppExpectation], watchedURLs: [WatchedURL]) -> AndroidResult {
        var copy = self
        copy.findings = findings.filter { !AndroidCheckEvaluation.expectationCodes.contains($0.code) }
            + AndroidCheckEvaluation.expectationFindings(file, expectations, url: url)
        copy.verdict = Verdict(findings: copy.findings)
        copy.identities = Self.identities(file ?? AssetLinksFile(), expectations: expectations)
        copy.watchedURLs = AndroidWatchedURLs.evaluate(watchedURLs, file: file, keys: Self.keys(expectations))
        return copy
    }

    /// Carries `versionSince` over from the previous check when the origin still serves the same file,
    /// and the grants the removal rules compare: the file served before this one moves on only when
    /// the served file changes (its digest or what it grants), so a removal stays a failure for as long
    /// as the file that made it is served; a check that served nothing carries both.
    public func continuing(from previous: AndroidResult?, at checkedAt: Date) -> AndroidResult {
        var copy = self
        let last = previous?.servedGrants
        if let current = servedGrants {
            if let last, last != current { copy.previousGrants = last } else { copy.previousGrants = previous?.previousGrants }
        } else {
            copy.servedGrants = last
            copy.previousGrants = previous?.previousGrants
        }
        copy.versionSince = CheckSummary.versionSince(of: versionSHA256, previous: previous.map { ($0.versionSHA256, $0.versionSince) },
                                                      checkedAt: checkedAt)
        return copy
    }
}

extension GoogleVerdict {
    init(answer: GoogleAnswer, findings: [Finding]) {
        switch answer {
        case .unavailable(let reason):
            self.init(unavailable: reason)
        case .answered(let list, let checks):
            var codes: [String] = []
            for code in list.errorCodes + checks.flatMap(\.errorCodes) where !codes.contains(code) { codes.append(code) }
            self.init(errorCodes: codes, maxAgeSeconds: list.maxAgeSeconds, debugString: list.debugString,
                      statementCount: list.statements.count,
                      notLinked: checks.filter { !$0.linked }.map { "\($0.packageName) \($0.fingerprint)" },
                      // Within maxAge plus the grace the evaluation reports the lag at info: expected, not stale.
                      staleBeyondGrace: findings.contains { $0.code == AndroidCheckFinding.googleStale.code && $0.severity != .info })
        }
    }
}
