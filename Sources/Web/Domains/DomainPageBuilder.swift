import Vocabulary
import AASA
import Foundation
import Monitor
import Store

/// Gathers the domain page's view model from the store and the AASA module.
enum DomainPageBuilder {
    /// Errors first, as the page and the API list them.
    static func findings(_ check: CheckRow) -> [Finding] {
        check.findings.sorted { $0.severity < $1.severity }
    }

    static func build(_ d: DomainRecord, c: RequestContext, store db: any DomainStore & CheckStore) throws -> DomainPageModel {
        let now = c.now
        let checking = !d.paused && (d.isChecking(now: now) || d.lastCheckedAt == nil)
        // The checks that changed something, newest first: the timeline's. An unchanged check is a
        // repeat, not a row, so the latest check is nearly always the first of them: taken from
        // there, not asked and decoded a second time.
        let changes = try db.checks(domainID: d.id, onlyChanges: true, limit: 50)
        let latest = try d.lastCheckID.flatMap { id in try changes.first { $0.id == id } ?? db.check(id: id) }
            ?? db.checks(domainID: d.id, onlyChanges: false, limit: 1).first
        let currentFindings = latest.map(findings) ?? []
        let state = DomainState(verdict: d.lastVerdict ?? latest?.verdict, checking: d.isChecking(now: now))
        let appIDs = try db.appIDExpectations(domainID: d.id), watched = try db.watchedURLs(domainID: d.id)
        let versions = try db.versions(domainID: d.id, platform: .apple)
        // The file shown is usually the diff's newer side too: read once for both.
        let current = try latest?.originVersionSHA256.flatMap { sha in try StoredVersions.apple(sha, in: db).map { (sha: sha, reading: $0) } }
        // Only the latest check's transport facts are shown: its location cards here, Android's below.
        let transport = try latest.flatMap { try db.transport(checkID: $0.id) }
        // Measured when the check ran (or the expectations were edited): the page never parses the file for it.
        let expectationStatus = d.lastExpectations.map { ExpectationStatus(results: $0, appIDs: appIDs.map { ($0.service, $0.appID) }) }
        // Each platform's state as the overview, the API, `status` and the badge show it (unmet expectations included).
        let platformStates = try db.platformVerdicts(domainID: d.id)
        let android = try AndroidPanel.build(d, latest: latest, transport: transport, state: platformStates.android,
                                             watched: watched.map(\.url), query: c.query, db: db)
        let androidApps = try db.androidAppExpectations(domainID: d.id).map { ($0.packageName, $0.fingerprints.count) }
        let androidWatched = androidExpectations(d, watched: watched, android: android)
        let charts = try charts(domainID: d.id, now: now, db: db)
        let shownState: DomainState = checking && latest == nil ? .never : state
        let sentence = verdictSentence(d, state: state, checking: checking, neverChecked: checking && latest == nil, android: android, states: platformStates,
                                       androidExpects: !(androidApps.isEmpty && androidWatched.isEmpty)) ?? VerdictSentence.make(
            state: shownState, findings: currentFindings, host: d.displayName, failedExpectations: expectationStatus?.failures ?? [],
            hasExpectations: !appIDs.isEmpty || !watched.isEmpty)
        return DomainPageModel(
            id: d.id, host: d.host, displayHost: d.displayName, isWildcard: d.wildcard, intervalMinutes: d.intervalSeconds / 60,
            badge: d.badgeEnabled, state: state, verdictSentence: sentence, checking: checking,
            lastCheck: d.lastCheckedAt.map(DomainHandlers.epoch), nextCheck: DomainHandlers.epoch(d.nextCheckAt), paused: d.paused,
            findings: currentFindings, file: fileView(latest, current: current, versions: versions, now: now),
            locations: try locationViews(d, latest: latest, transport: transport, versions: versions, db: db),
            timeline: try timeline(d, changes: changes, db: db),
            versions: versions.map { .init(hash: $0.sha256, firstSeen: DomainHandlers.epoch($0.firstSeenAt), size: $0.size) },
            diff: try diffView(versions: versions, watched: watched.map(\.url), query: c.query, db: db, known: current),
            responseTimes: charts.latency, certificateDays: charts.certificateDays,
            appIDs: appIDs.map { ($0.service, $0.appID) }, watched: watched.map { ($0.url, $0.expectedAppID ?? "browser") },
            expectationStatus: expectationStatus, now: Int64(now.timeIntervalSince1970),
            appleState: d.platforms.watches(.apple) ? platformStates.apple.map { DomainState(verdict: $0) } : nil,
            android: android, androidWatched: androidWatched, androidApps: androidApps)
    }

    /// The file the latest check saw, as the page shows it; nil when it saw none.
    static func fileView(_ latest: CheckRow?, current: (sha: String, reading: VersionReading<AASADocument>)?, versions: [VersionSummary],
                         now: Date) -> DomainPageModel.FileView? {
        guard let current else { return nil }
        let firstSeen = versions.first { $0.sha256 == current.sha }?.firstSeenAt ?? latest?.startedAt ?? now
        return .init(text: current.reading.text, size: current.reading.size, hash: current.sha, firstSeen: DomainHandlers.epoch(firstSeen))
    }

    /// The latest check's location cards, each with the version it served and why a 304 kept it.
    static func locationViews(_ d: DomainRecord, latest: CheckRow?, transport: CheckTransport?, versions: [VersionSummary],
                              db: any DomainStore & CheckStore) throws -> [DomainPageModel.LocationView] {
        guard let latest, let transport else { return [] }
        let device = transport.deviceLocation ?? .wellKnown
        return try transport.locations.map { facts in
            let hash = switch facts.location {
            case .cdn: latest.cdnVersionSHA256
            case device: latest.originVersionSHA256
            default: nil as String?
            }
            let firstSeen = hash.flatMap { sha in versions.first { $0.sha256 == sha }?.firstSeenAt }
            return try DomainPageModel.LocationView(facts, versionHash: hash)
                .explainingNotModified(facts, versionFirstSeen: firstSeen, domainID: d.id, db: db) { transport in
                    transport.locations.first { $0.location == facts.location }
                }
        }
    }

    /// Timeline: checks that changed something (`changes`, newest first), newest first, each with the
    /// run of unchanged checks (repeats and roll-ups) that followed it.
    static func timeline(_ d: DomainRecord, changes: [CheckRow], db: any DomainStore & CheckStore) throws -> [DomainPageModel.TimelineEntry] {
        let runs = try db.unchangedRuns(domainID: d.id, limit: 50)
        var seen = Set<String>()
        var entries: [DomainPageModel.TimelineEntry] = []
        var previousAndroid: AndroidResult?, seenAndroid = Set<String>()
        for ch in changes.reversed() {
            let android = AndroidTimelineEvent.between(previousAndroid, ch.android, platforms: d.platforms, seen: seenAndroid)
            if let sha = ch.android?.versionSHA256 { seenAndroid.insert(sha) }
            if ch.android != nil { previousAndroid = ch.android }
            var isNew = false
            if let sha = ch.originVersionSHA256, !seen.contains(sha) { seen.insert(sha); isNew = true }
            let fs = findings(ch)
            // The timeline's state is the check's file verdict; the expectations it measured are shown
            // beside it, and their first miss is the line to read unless the file itself failed.
            let unmet = ch.expectations.unmetDescriptions.count
            let domainVerdict = ch.verdict.map { DomainVerdict(fileVerdict: $0, findings: fs, expectations: ch.expectations) }
            let summary = (unmet > 0 ? domainVerdict?.reason?.text : nil) ?? fs.first.map { $0.message } ?? "No findings."
            entries.append(.init(checkID: ch.id, time: DomainHandlers.epoch(ch.startedAt), state: DomainState(verdict: ch.verdict),
                                 versionHash: ch.originVersionSHA256, newVersion: isNew, summary: summary,
                                 unchangedAfter: runs[ch.id].map {
                                     .init(count: $0.count, first: DomainHandlers.epoch($0.firstAt), last: DomainHandlers.epoch($0.lastAt))
                                 }, unmetExpectations: unmet, android: android.map(\.text)))
        }
        return entries.reversed()
    }

    /// Response times and whole days of certificate left over the last year, for the two charts.
    static func charts(domainID: Int64, now: Date, db: any CheckStore) throws -> (latency: [LineChart.Point], certificateDays: [LineChart.Point]) {
        let points = try db.chartPoints(domainID: domainID, since: now.addingTimeInterval(-365 * 86_400), limit: 400)
        let latency = points.map {
            LineChart.Point(time: DomainHandlers.epoch($0.time), value: $0.latencyMilliseconds.map(Double.init),
                            low: $0.latencyMinMilliseconds.map(Double.init), high: $0.latencyMaxMilliseconds.map(Double.init))
        }
        // Whole days left, counted down like the origin card's "(N days)".
        let certificateDays = points.compactMap { p -> LineChart.Point? in
            guard let date = p.certificateNotAfter else { return nil }
            return LineChart.Point(time: DomainHandlers.epoch(p.time), value: (date.timeIntervalSince(p.time) / 86_400).rounded(.down))
        }
        return (latency, certificateDays)
    }

    /// What each watched URL must do on Android, by URL, with the latest check's outcome; empty where
    /// Android is not watched. Derived expectations are shown only where a check measured them (the
    /// pipeline derives them).
    static func androidExpectations(_ d: DomainRecord, watched: [WatchedURLExpectation],
                                    android: AndroidPanel) -> [String: DomainPageModel.AndroidExpectationView] {
        guard d.platforms.watches(.android) else { return [:] }
        let measured = Dictionary((android.state == nil ? [] : android.result?.watchedURLs ?? []).map { ($0.url, $0) },
                                  uniquingKeysWith: { first, _ in first })
        var views: [String: DomainPageModel.AndroidExpectationView] = [:]
        for w in watched {
            let result = measured[w.url]
            guard let expected = w.android?.outcome ?? result?.expected else { continue }
            views[w.url] = .init(expected: expected.description, statedApart: w.android != nil,
                                 actual: result?.actual.description, holds: result?.meetsExpectation)
        }
        return views
    }

    /// Android's own sentence where it speaks for the domain: one watched for Android only, or one
    /// Android made worse than Apple's side (each side's state counts its unmet expectations); nil:
    /// Apple's sentence. The unmet watched URL is the latest check's, else (an edit re-measured them
    /// since) the stored reason when it is Android's.
    static func verdictSentence(_ d: DomainRecord, state: DomainState, checking: Bool, neverChecked: Bool, android: AndroidPanel,
                                states: (apple: Verdict?, android: Verdict?), androidExpects: Bool) -> String? {
        let unmetOnAndroid = android.result.flatMap { DomainVerdict.androidState($0).unmet }
            ?? d.lastReason.flatMap { $0.platform == .android ? $0.text : nil }
        if d.platforms == .android {
            let shown: DomainState = neverChecked ? .never : checking ? .checking : android.state ?? state
            return VerdictSentence.android(shown, findings: android.findings, host: d.displayName, unmet: unmetOnAndroid,
                                           hasExpectations: androidExpects)
        }
        guard let androidState = states.android, !checking, androidState > (states.apple ?? .pass) else { return nil }
        return VerdictSentence.android(DomainState(verdict: androidState), findings: android.findings, host: d.displayName, unmet: unmetOnAndroid)
    }

    /// `known`: a version the caller has already read (the page's current file), not read again.
    static func diffView(versions: [VersionSummary], watched: [String], query: FormData, db: any CheckStore,
                         known: (sha: String, reading: VersionReading<AASADocument>)? = nil) throws -> DomainPageModel.DiffView? {
        guard versions.count >= 2 else { return nil }
        let hashes = Set(versions.map(\.sha256))
        let to = query["to"].flatMap { hashes.contains($0) ? $0 : nil } ?? versions[0].sha256
        let from = query["from"].flatMap { hashes.contains($0) ? $0 : nil } ?? versions[1].sha256
        func reading(_ sha: String) throws -> VersionReading<AASADocument>? {
            if let known, known.sha == sha { return known.reading }
            return try StoredVersions.apple(sha, in: db)
        }
        guard let old = try reading(from), let new = try reading(to) else { return nil }
        return compare(old: old, new: new, fromHash: from, toHash: to, watched: watched)
    }

    /// Two stored versions compared from their readings (documents and text): nothing is parsed here.
    static func compare(old: VersionReading<AASADocument>, new: VersionReading<AASADocument>, fromHash: String, toHash: String,
                        watched: [String]) -> DomainPageModel.DiffView {
        var behavioural: [String] = []
        var watchedChanges: [DomainPageModel.WatchedChange] = []
        if let a = old.document, let b = new.document {
            let diff = AASADiff.diff(old: a, new: b, urls: watched)
            for o in diff.openers {
                watchedChanges.append(.init(url: o.url, before: o.old.map { "opens " + $0 } ?? "stays in the browser",
                                            after: o.new.map { "opens " + $0 } ?? "stays in the browser"))
            }
            for s in diff.services {
                for a in s.added { behavioural.append("\(s.service): \(a) was added.") }
                for r in s.removed { behavioural.append("\(s.service): \(r) was removed.") }
            }
            if let order = diff.appOrder {
                behavioural.append("App precedence changed: \(order.old.joined(separator: " > ")) → \(order.new.joined(separator: " > ")).")
            }
            for app in diff.apps {
                for ch in app.changes {
                    switch ch.kind {
                    case .added: behavioural.append("\(app.appID): rule added — \(ch.newRule?.text ?? "")")
                    case .removed: behavioural.append("\(app.appID): rule removed — \(ch.oldRule?.text ?? "")")
                    case .moved: behavioural.append("\(app.appID): rule moved — \(ch.newRule?.text ?? "") (order decides which rule wins)")
                    case .changed: behavioural.append("\(app.appID): rule changed (\(ch.changedKeys.joined(separator: ", "))) — \(ch.oldRule?.text ?? "") → \(ch.newRule?.text ?? "")")
                    }
                }
            }
        } else if old.document != nil || new.document != nil {
            behavioural.append(new.document == nil ? "The new file cannot be read: devices would associate no app."
                                                   : "The old file could not be read; the new one can.")
        }
        return .init(fromHash: fromHash, toHash: toHash, behavioural: behavioural, watched: watchedChanges,
                     text: TextDiff.diff(old.text.lines.map(\.text), new.text.lines.map(\.text)))
    }
}
