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
        // repeat, not a row, so the latest check is
        // nearly always the first of them: taken from there, not asked and decoded a second time.
        let changes = try db.checks(domainID: d.id, onlyChanges: true, limit: 50)
        let latest = try d.lastCheckID.flatMap { id in try changes.first { $0.id == id } ?? db.check(id: id) }
            ?? db.checks(domainID: d.id, onlyChanges: false, limit: 1).first
        let currentFindings = latest.map(findings) ?? []
        let state = DomainState(verdict: d.lastVerdict ?? latest?.verdict, checking: d.isChecking(now: now))
        let appIDs = try db.appIDExpectations(domainID: d.id)
        let watched = try db.watchedURLs(domainID: d.id)

        let versions = try db.versions(domainID: d.id, platform: .apple)
        var file: DomainPageModel.FileView?
        // The file shown is usually the diff's newer side too: read once for both.
        var current: (sha: String, reading: VersionReading<AASADocument>)?
        if let sha = latest?.originVersionSHA256, let reading = try StoredVersions.apple(sha, in: db) {
            current = (sha, reading)
            let firstSeen = versions.first { $0.sha256 == sha }?.firstSeenAt ?? latest?.startedAt ?? now
            file = .init(text: reading.text, size: reading.size, hash: sha, firstSeen: DomainHandlers.epoch(firstSeen))
        }
        // Only the latest check's transport facts are shown: its location cards here, Android's below.
        let transport = try latest.flatMap { try db.transport(checkID: $0.id) }
        var locations: [DomainPageModel.LocationView] = []
        if let latest, let transport {
            let device = transport.deviceLocation ?? .wellKnown
            locations = try transport.locations.map { facts in
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
        // Timeline: checks that changed something, newest first, each with the run of unchanged
        // checks (repeats and roll-ups) that followed it.
        let runs = try db.unchangedRuns(domainID: d.id, limit: 50)
        var seen = Set<String>()
        let oldestFirst = changes.reversed()
        var entries: [DomainPageModel.TimelineEntry] = []
        var previousAndroid: AndroidResult?, seenAndroid = Set<String>()
        for ch in oldestFirst {
            let android = AndroidTimelineEvent.between(previousAndroid, ch.android, platforms: d.platforms,
                                                       seen: seenAndroid)
            if let sha = ch.android?.versionSHA256 { seenAndroid.insert(sha) }
            if ch.android != nil { previousAndroid = ch.android }
            var isNew = false
            if let sha = ch.originVersionSHA256, !seen.contains(sha) { seen.insert(sha); isNew = true }
            let fs = findings(ch)
            // The timeline's state is the check's file verdict; the expectations it measured are shown
            // beside it, and their first miss is the line to read unless the file itself failed.
            let expectations = ch.expectations
            let unmet = expectations.unmetDescriptions.count
            let domainVerdict = ch.verdict.map {
                DomainVerdict(fileVerdict: $0, findings: fs, expectations: expectations)
            }
            let summary = (unmet > 0 ? domainVerdict?.reason : nil) ?? fs.first.map { $0.message } ?? "No findings."
            entries.append(.init(checkID: ch.id, time: DomainHandlers.epoch(ch.startedAt), state: DomainState(verdict: ch.verdict),
                                 versionHash: ch.originVersionSHA256, newVersion: isNew, summary: summary,
                                 unchangedAfter: runs[ch.id].map {
                                     .init(count: $0.count, first: DomainHandlers.epoch($0.firstAt), last: DomainHandlers.epoch($0.lastAt))
                                 }, unmetExpectations: unmet, android: android.map(\.text)))
        }
        // Measured when the check ran (or the expectations were edited): the page never parses the file for it.
        let expectationStatus = d.lastExpectations.map {
            ExpectationStatus(results: $0, appIDs: appIDs.map { ($0.service, $0.appID) })
        }
        let diff = try diffView(versions: versions, watched: watched.map(\.url), query: c.query, db: db, known: current)
        // Each platform's state as the overview, the API, `status` and the badge show it (unmet expectations included).
        let platformStates = try db.platformVerdicts(domainID: d.id)
        let android = try AndroidPanel.build(d, latest: latest, transport: transport, state: platformStates.android,
                                             watched: watched.map(\.url), query: c.query, db: db)

        let points = try db.chartPoints(domainID: d.id, since: now.addingTimeInterval(-365 * 86_400), limit: 400)
        let latency = points.map {
            LineChart.Point(time: DomainHandlers.epoch($0.time), value: $0.latencyMilliseconds.map(Double.init),
                            low: $0.latencyMinMilliseconds.map(Double.init), high: $0.latencyMaxMilliseconds.map(Double.init))
        }
        // Whole days left, counted down like the origin card's "(N days)".
        let cert = points.compactMap { p -> LineChart.Point? in
            guard let date = p.certificateNotAfter else { return nil }
            return LineChart.Point(time: DomainHandlers.epoch(p.time), value: (date.timeIntervalSince(p.time) / 86_400).rounded(.down))
        }
        var model = DomainPageModel(
            id: d.id, host: d.host, displayHost: d.displayName, isWildcard: d.wildcard, intervalMinutes: d.intervalSeconds / 60,
            badge: d.badgeEnabled, state: state,
            verdictSentence: VerdictSentence.make(state: checking && latest == nil ? .never : state, findings: currentFindings,
                                                  host: d.displayName, failedExpectations: expectationStatus?.failures ?? [],
                                                  hasExpectations: !appIDs.isEmpty || !watched.isEmpty),
            checking: checking, lastCheck: d.lastCheckedAt.map(DomainHandlers.epoch), nextCheck: DomainHandlers.epoch(d.nextCheckAt), paused: d.paused,
            findings: currentFindings, file: file, locations: locations, timeline: entries.reversed(), versions: versions.map {
                .init(hash: $0.sha256, firstSeen: DomainHandlers.epoch($0.firstSeenAt), size: $0.size)
            }, diff: diff, responseTimes: latency, certificateDays: cert,
            appIDs: appIDs.map { ($0.service, $0.appID) },
            watched: watched.map { ($0.url, $0.expectedAppID ?? "browser") }, expectationStatus: expectationStatus,
            now: Int64(now.timeIntervalSince1970))
        model.appleState = d.platforms.watches(.apple) ? platformStates.apple.map { DomainState(verdict: $0) } : nil
        model.android = android
        model.androidApps = try db.androidAppExpectations(domainID: d.id).map { ($0.packageName, $0.fingerprints.count) }
        if d.platforms.watches(.android) {
            let measured = Dictionary((android.state == nil ? [] : android.result?.watchedURLs ?? []).map { ($0.url, $0) },
                                      uniquingKeysWith: { first, _ in first })
            for w in watched {
                let result = measured[w.url]
                // Derived expectations are shown only where a check measured them (the pipeline derives them).
                guard let expected = w.android?.outcome ?? result?.expected else { continue }
                model.androidWatched[w.url] = .init(expected: expected.description, statedApart: w.android != nil,
                                                    actual: result?.actual.description, holds: result?.meetsExpectation)
            }
        }
        // A domain watched for Android only, or one Android made worse than Apple's side: the sentence
        // is Android's own, not Apple's words. Each side's state counts its unmet expectations.
        // The latest check's watched URLs, else (an edit re-measured them since) the stored reason, which
        // is Android's whenever this sentence is shown.
        let unmetOnAndroid = android.result.flatMap { DomainVerdict.androidState($0).unmet }
            ?? d.lastReason.flatMap { $0.hasPrefix("Android: ") ? String($0.dropFirst("Android: ".count)) : nil }
        let androidExpects = !(model.androidApps.isEmpty && model.androidWatched.isEmpty)
        if d.platforms == .android {
            let shown: DomainState = checking && latest == nil ? .never : checking ? .checking : android.state ?? state
            model.verdictSentence = VerdictSentence.android(shown, findings: android.findings, host: d.displayName, unmet: unmetOnAndroid,
                                                            hasExpectations: androidExpects)
        } else if let androidState = platformStates.android, !checking, androidState > (platformStates.apple ?? .pass) {
            model.verdictSentence = VerdictSentence.android(DomainState(verdict: androidState), findings: android.findings, host: d.displayName,
                                                            unmet: unmetOnAndroid)
        }
        return model
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
