import AssetLinks
import Foundation
import Monitor
import Store
import Vocabulary

/// The domain page's Android side (issue #13): assetlinks.json's verdict and findings, how the
/// origin answered each user agent, Google's Digital Asset Links verdict beside it (as Apple's CDN
/// sits beside the origin), the expected identities as the file grants them, and the versions of
/// the file with a diff. Built from the latest check's `checks.android` and the stored versions.
struct AndroidPanel: Sendable {
    /// The domain's platform setting.
    var platforms: WatchedPlatforms
    /// The latest Android result (carried over between probes); nil before Android was ever checked.
    var result: AndroidResult?
    /// `/.well-known/assetlinks.json` as Google's fetcher, then a browser and Android, saw it; then includes.
    var origin: DomainPageModel.LocationView?
    var otherUserAgents: [DomainPageModel.LocationView] = []
    var includes: [DomainPageModel.LocationView] = []
    var file: DomainPageModel.FileView?
    var versions: [DomainPageModel.VersionEntry] = []
    var diff: DomainPageModel.DiffView?

    /// Whether Android counts for the domain's state: watched for Android only, or for both where the
    /// site serves a file or an Android app is expected of it (`AndroidResult.counts(for:)`).
    var counts: Bool { result?.counts(for: platforms) ?? false }

    /// Android's state as stored (`DomainStore.platformVerdicts`): the file's verdict made worse by
    /// Android's unmet expectations (a watched URL); nil: the file's verdict.
    var storedState: Verdict?

    /// The state the Android column shows.
    var state: DomainState? { counts ? result.map { DomainState(verdict: storedState ?? $0.verdict) } : nil }

    /// Errors first, as Apple's findings are listed.
    var findings: [Finding] { (result?.findings ?? []).sorted { $0.severity < $1.severity } }

    /// `transport`: the latest check's transport facts. `watched`: the domain's watched URLs (the page has them already).
    static func build(_ d: DomainRecord, latest: CheckRow?, transport: CheckTransport?, state: Verdict?, watched: [String], query: FormData,
                      db: any DomainStore & CheckStore) throws -> AndroidPanel {
        var panel = AndroidPanel(platforms: d.platforms, result: latest?.android, storedState: state)
        guard d.platforms.watches(.android) else { return panel }
        let versions = try db.versions(domainID: d.id, platform: .android)
        if let facts = transport?.assetLinks {
            let sha = latest?.androidVersionSHA256
            panel.origin = try DomainPageModel.LocationView(facts, versionHash: sha, title: title(facts, first: true))
                .explainingNotModified(facts, versionFirstSeen: sha.flatMap { sha in versions.first { $0.sha256 == sha }?.firstSeenAt },
                                       domainID: d.id, db: db) { $0.assetLinks }
        }
        panel.otherUserAgents = (transport?.assetLinksOtherUserAgents ?? []).map { .init($0, versionHash: nil, title: title($0, first: false)) }
        panel.includes = (transport?.assetLinksIncludes ?? []).map { .init($0, versionHash: nil, title: "Include") }
        panel.versions = versions.map { .init(hash: $0.sha256, firstSeen: DomainHandlers.epoch($0.firstSeenAt), size: $0.size) }
        if let sha = latest?.androidVersionSHA256, let reading = try StoredVersions.android(sha, in: db) {
            let firstSeen = versions.first { $0.sha256 == sha }?.firstSeenAt ?? latest?.startedAt ?? Date()
            panel.file = .init(text: reading.text, size: reading.size, hash: sha, firstSeen: DomainHandlers.epoch(firstSeen))
        }
        panel.diff = try diffView(versions: versions, watched: watched, query: query, db: db)
        return panel
    }

    static func title(_ facts: TransportFacts, first: Bool) -> String {
        let agent = facts.userAgent.map { " as " + ($0.hasPrefix("GoogleAssociationService") ? "Google's fetcher" : agentName($0)) } ?? ""
        return "Origin: /.well-known/assetlinks.json" + (first && facts.userAgent == nil ? " (Google's fetcher)" : agent)
    }

    static func agentName(_ userAgent: String) -> String {
        if userAgent.hasPrefix("Dalvik") { return "Android" }
        if userAgent.hasPrefix("Mozilla") { return "a browser" }
        return userAgent
    }

    /// Two Android versions compared: what changes for apps (grants, packages, fingerprints,
    /// dynamic rules, watched URLs on Android 15+), then the text. `afrom`/`ato` pick the versions.
    static func diffView(versions: [VersionSummary], watched: [String], query: FormData, db: any CheckStore) throws -> DomainPageModel.DiffView? {
        guard versions.count >= 2 else { return nil }
        let known = Set(versions.map(\.sha256))
        let to = query["ato"].flatMap { known.contains($0) ? $0 : nil } ?? versions[0].sha256
        let from = query["afrom"].flatMap { known.contains($0) ? $0 : nil } ?? versions[1].sha256
        guard let old = try StoredVersions.android(from, in: db), let new = try StoredVersions.android(to, in: db) else { return nil }
        return compare(old: old, new: new, fromHash: from, toHash: to, watched: watched)
    }

    /// Two stored versions compared from their readings (statements and text): nothing is parsed here.
    static func compare(old: VersionReading<AssetLinksFile>, new: VersionReading<AssetLinksFile>, fromHash: String, toHash: String,
                        watched: [String]) -> DomainPageModel.DiffView {
        var behavioural: [String] = []
        var urls: [DomainPageModel.WatchedChange] = []
        let before = old.document, after = new.document
        if let before, let after {
            let diff = AssetLinksDiff.diff(old: before, new: after, urls: watched)
            for g in diff.grantsRemoved { behavioural.append("\(g.target): \(g.relation) was removed.") }
            for g in diff.grantsAdded { behavioural.append("\(g.target): \(g.relation) was added.") }
            for p in diff.packagesRemoved { behavioural.append("Package \(p) was removed.") }
            for p in diff.packagesAdded { behavioural.append("Package \(p) was added.") }
            for f in diff.fingerprintsRemoved { behavioural.append("\(f.packageName): fingerprint \(f.fingerprint) was removed.") }
            for f in diff.fingerprintsAdded { behavioural.append("\(f.packageName): fingerprint \(f.fingerprint) was added.") }
            for r in diff.dynamicRules {
                behavioural.append("\(r.packageName): dynamic rules \(r.before) → \(r.after)"
                                   + (r.added.isEmpty ? "" : "; added " + r.added.joined(separator: ", "))
                                   + (r.removed.isEmpty ? "" : "; removed " + r.removed.joined(separator: ", ")) + ".")
            }
            for u in diff.urls {
                urls.append(.init(url: u.url, before: "\(u.packageName): \(u.before)", after: "\(u.packageName): \(u.after)"))
            }
        } else if before != nil || after != nil {
            behavioural.append(after == nil ? "The new file cannot be read: Android verifies no app for this host."
                                            : "The old file could not be read; the new one can.")
        }
        return .init(fromHash: fromHash, toHash: toHash, behavioural: behavioural, watched: urls,
                     text: TextDiff.diff(old.text.lines.map(\.text), new.text.lines.map(\.text)))
    }
}

extension DomainPageModel.LocationView {
    init(_ facts: TransportFacts, versionHash: String?, title: String) {
        self.init(facts, versionHash: versionHash)
        self.title = title
    }
}
