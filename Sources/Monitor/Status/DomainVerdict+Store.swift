import Vocabulary
import AASA
import AssetLinks
import Store

extension DomainVerdict {
    /// Re-measures a domain's verdict against its expectations as stored now and the files of its
    /// latest check — Apple's and Android's, as stored, with no new fetch — and stores it: editing the
    /// expectations (adding an app ID the file lacks, an Android app, a watched URL) shows at once
    /// instead of after the next check. Returns nil, changing nothing, before the first check; and
    /// nil when the latest check measured none of the platforms the domain is watched for now, whose
    /// state is then cleared: it shows as never checked, like a new domain, until its next check.
    ///
    /// The alert streaks are left to the next check, which judges the same file the same way.
    @discardableResult
    public static func reevaluate(domainID: Int64, in store: some TransactionalStore) throws -> DomainVerdict? {
        try store.withTransaction { connection in try reevaluate(domainID: domainID, on: connection) }
    }

    /// The same inside a transaction the caller holds (a config apply re-measures every domain it
    /// changed in the transaction that changed them).
    @discardableResult
    public static func reevaluate(domainID: Int64, on connection: Connection) throws -> DomainVerdict? {
        // Locks the domain's row: a check recorded meanwhile either went first (and this measures
        // its file) or waits and then writes its own result.
        guard let latest = try connection.latestCheck(domainID: domainID) else { return nil }
        let androidApps = try connection.androidExpectations(domainIDs: [domainID])
        let expectations = Expectations(rows: try connection.expectations(domainIDs: [domainID]), android: androidApps)
        // The stored readings: neither file is parsed again to re-measure it.
        let document = try latest.appleVersion.flatMap { try StoredVersions.apple($0.sha256, in: connection)?.document }
        let results = ExpectationEvaluation.evaluate(expectations, document: document)
        let androidFile = try latest.androidVersion.flatMap { try StoredVersions.android($0.sha256, in: connection)?.document }
        let android = latest.android.map { stored -> AndroidResult in
            let file = androidFile
            // The statements of included files are not stored: such a file is left to the next check.
            if let file, !file.includes.isEmpty { return stored }
            return stored.remeasured(file: file, url: "https://\(latest.host)/.well-known/assetlinks.json",
                                     expectations: androidApps.map(\.app),
                                     watchedURLs: expectations.androidWatchedURLs)
        }
        // The platform setting as it is now decides, so a change of it shows at once: a platform no
        // longer watched stops counting; Apple's side, newly watched, counts from its first check.
        let watchedAndroid = latest.platforms.watches(.android) ? android : nil
        let appleMeasured = latest.platforms.watches(.apple) && latest.checkedApple
        guard appleMeasured || watchedAndroid != nil else {
            // The check measured no platform watched now (Android only switched to Apple only, or
            // back): "pass" with no platform state would be a verdict nothing judged.
            try connection.clearDomainState(domainID: domainID, basedOnCheck: latest.checkID)
            return nil
        }
        var measured = appleMeasured
            ? DomainVerdict(fileVerdict: latest.fileVerdict, findings: latest.findings, expectations: results, android: watchedAndroid)
            : DomainVerdict(android: watchedAndroid)
        // The alerts open now, as the check that opened them left them (their streaks are the next check's).
        let openAlerts = try connection.openAlertSummaries(domainID: domainID)
        measured.lead(with: openAlerts.map { OpenAlertSummary(severity: $0.severity, summary: $0.summary) })
        try connection.setDomainState(domainID: domainID, verdict: measured.verdict, reason: measured.reason, platforms: measured.platformStates,
                                      expectations: document == nil || !appleMeasured ? nil : results, basedOnCheck: latest.checkID)
        return measured
    }
}

extension DomainVerdict {
    /// `apple` and `android` as the domain row stores them.
    public var platformStates: PlatformStates { PlatformStates(apple: apple, android: android) }
}
