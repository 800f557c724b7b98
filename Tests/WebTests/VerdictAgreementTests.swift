import AppManifests
import AssetLinks
import AASA
import Fetch
import Foundation
import Monitor
import Outbound
import Store
import Testing
import TestSupport
import Vocabulary
@testable import Web

/// One verdict, computed once (issue #29): every scenario of the test fleet, claimed by one iOS +
/// Android app whose IDs, package and key match the fleet's files, is checked once through the real
/// pipeline (real PostgreSQL, the HTTPS fleet); then the domain page, the app page, the API (the
/// domain list, the single domain and the app) and `verify-app`'s evaluation of the same hosts must
/// say the same state and the same reason for each (domain, platform).
@Suite(.serialized) struct VerdictAgreementTests {
    static let appleID = FleetFiles.appID
    static let package = FleetAssetLinks.packageName

    /// The app's manifest: one autoVerify filter claiming every Android scenario host.
    static func manifest(_ hosts: [String]) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="\(package)">
            <application><activity android:name=".Main" android:exported="true">
                <intent-filter android:autoVerify="true">
                    <action android:name="android.intent.action.VIEW" />
                    <category android:name="android.intent.category.DEFAULT" />
                    <category android:name="android.intent.category.BROWSABLE" />
                    <data android:scheme="https" />
        \(hosts.map { "            <data android:host=\"\($0)\" />" }.joined(separator: "\n"))
                </intent-filter>
            </activity></application>
        </manifest>
        """
    }

    static func watchedOnApple(_ fleet: TestTLSFleet) -> String { "https://\(fleet.host("good"))/account" }
    static func watchedOnAndroid(_ fleet: TestTLSFleet) -> String { "https://\(fleet.host("al-dynamic"))/account/1" }

    static func json(_ response: WebResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
    }

    /// The app page's cell of a domain's link, as `AppPages` writes it: its state and its reason.
    static func pageCell(_ page: String, domainID: Int64, platform: Platform, service: Service) -> (state: String?, reason: String?) {
        let row = PlatformSeamTests.row(page, domainID: domainID)
        let marker = "data-platform=\"\(platform.rawValue)\" data-service=\"\(service.rawValue)\" data-state=\""
        guard let start = row.range(of: marker) else { return (nil, nil) }
        let rest = row[start.upperBound...]
        let state = String(rest.prefix { $0 != "\"" })
        let item = rest.range(of: "</li>").map { rest[..<$0.lowerBound] } ?? rest
        let reason = item.range(of: "<span class=\"reason\">").flatMap { open in
            item[open.upperBound...].range(of: "</span>").map { String(item[open.upperBound..<$0.lowerBound]) }
        }
        return (state, reason)
    }

    /// The state the domain page's column of a platform shows (`state-…` of its pill).
    static func columnState(_ page: String, platform: Platform) -> String? {
        let column = PlatformPageTests.from("platform-\(platform.rawValue)", in: page)
        let card = column.range(of: "</div>").map { String(column[..<$0.lowerBound]) } ?? column
        guard let start = card.range(of: "state-") else { return nil }
        return String(card[start.upperBound...].prefix { $0 != "\"" && $0 != " " })
    }

    @Test func everySurfaceSaysWhatTheOneVerdictSays() async throws {
        try await TestTLSFleet.with { fleet in
            // Both timing-out scenarios (hang, drip) within seconds, as FleetScenarioTests hurries them.
            let fetcher = try Fetcher(FetchConfiguration(
                policy: OutboundPolicy(allowPrivateAddresses: true), cdnBase: fleet.cdnBase, checkCDN: true,
                rootLocation: .whenWellKnownFails, compareUserAgents: false,
                googleDAL: GoogleDALSettings(base: fleet.googleDALBase), extraCAFile: fleet.caFile,
                connectTo: try fleet.connectTo.map { try ConnectToRule(parsing: $0) },
                connectTimeout: .seconds(5), totalTimeout: .seconds(10)))
            defer { fetcher.shutdown() }
            let appleHosts = fleet.scenarios.map(fleet.host), androidHosts = fleet.androidScenarios.map(fleet.host)
            // Every Apple scenario for applinks and webcredentials (the fleet's files list the app for
            // both), and one service a file lacks it for: an unmet expectation on a valid file.
            let entries = appleHosts.flatMap { ["applinks:" + $0, "webcredentials:" + $0] } + ["appclips:" + fleet.host("good")]
            let manifest = Self.manifest(androidHosts)
            try await TestPostgres.withDatabase { (db: Database) async throws in
                let app = WebApp(database: db, configuration: TestApp.configuration)
                let client = WebClient(app: app)
                client.setUpAdmin()
                let token = SecretToken.generate(prefix: "aasa_")
                _ = try db.createAPIToken(name: "agreement", tokenHash: token.digest, userID: nil, role: .admin)
                func api(_ target: String) -> [String: Any] {
                    Self.json(app.respond(WebRequest(method: "GET", target: target, headers: [("Authorization", "Bearer " + token.value)])))
                }
                client.get("/apps/new")
                let created = client.post("/apps", [("name", "Fleet"), ("apple_app_ids", Self.appleID),
                                                    ("apple_domains", entries.joined(separator: "\n")),
                                                    ("fingerprints", FleetAssetLinks.appSigningKey), ("manifest", manifest),
                                                    // A page each file keeps in the browser although the app must open it:
                                                    // good's AASA opens /products/* only, al-dynamic's rules exclude /account/*.
                                                    ("watched_urls", "\(Self.watchedOnApple(fleet))\n\(Self.watchedOnAndroid(fleet))")])
                #expect(created.status == 303, "\(created.bodyText.prefix(2000))")
                let appRecord = try #require(try db.app(name: "Fleet"))
                // The Android scenarios serve no AASA: their owner watches them for Android only, so each
                // such domain's state and reason are Android's (the Apple scenarios' are Apple's).
                for host in androidHosts {
                    #expect(try db.execute("UPDATE domains SET platforms = 'android' WHERE host = $1", host) == 1)
                }

                // Every domain checked once, at the same time, through the pipeline the monitor runs.
                try await Self.checkEveryDomain(CheckPipeline(database: db, fetcher: fetcher))

                // verify-app's evaluation of the same hosts with the same app (its own fetch, as the CLI's).
                let watched = try db.appWatchedURLs(appID: appRecord.id).map(\.url)
                let gate = try await Self.gate(fetcher, entries: entries, manifest: manifest, urls: watched, appleHosts: appleHosts,
                                               androidHosts: androidHosts)

                let appPage = client.get("/apps/\(appRecord.id)").bodyText
                let appCells = ((api("/api/v1/apps/\(appRecord.id)")["domains"] as? [[String: Any]]) ?? [])
                let listed = (api("/api/v1/domains?per_page=500")["domains"] as? [[String: Any]]) ?? []
                var disagreements: [String] = []
                var domainReasonsCompared: [Platform: Int] = [:]
                let links = try db.appLinks(appID: appRecord.id)
                #expect(links.count == 2 * appleHosts.count + 1 + androidHosts.count, "a link per scenario, service and platform")
                // Each cell: the app page, the app's API and verify-app's case say one state and one reason.
                var cells: [Int64: [Platform: [(state: String, reason: String?)]]] = [:]
                for link in links {
                    let id = link.domainID, p = link.platform
                    let cell = Self.pageCell(appPage, domainID: id, platform: p, service: link.service)
                    let apiCell = ((appCells.first { ($0["domain_id"] as? Int).map(Int64.init) == id }?["cells"] as? [[String: Any]]) ?? [])
                        .first { $0["platform"] as? String == p.rawValue && $0["service"] as? String == link.service.rawValue } ?? [:]
                    let gated = gate.first { $0.platform == p && $0.group == link.service.rawValue && $0.host == link.host }.map(Self.withoutLagPolicy)
                    // verify-app reports a watched URL as a case of its own: an applinks cell stands as the worst of
                    // its entry's case and those of the URLs on its host.
                    let urlCases = link.service != .applinks ? [] : gate.filter { $0.platform == p && $0.group == "url" && $0.host == link.host }
                    let gatedVerdict = ([gated].compactMap { $0 } + urlCases).map(\.verdict).max()
                    let urlFails = urlCases.contains { $0.verdict != .pass }
                    let name = "\(link.host) \(p.rawValue) \(link.service.rawValue)"
                    let states: [(String, String?)] = [
                        ("app page", cell.state), ("app API", apiCell["state"] as? String),
                        ("verify-app", gatedVerdict.map { DomainState(verdict: $0).rawValue }),
                    ]
                    let reasons: [(String, String?)] = [
                        ("app page", cell.reason.map(Self.unescaped)), ("app API", apiCell["reason"] as? String),
                    ] + (urlFails ? [] : [("verify-app", gated?.reason)])
                    disagreements += Self.disagreements(name + " state", states) + Self.disagreements(name + " reason", reasons)
                    cells[id, default: [:]][p, default: []].append((cell.state ?? "none", cell.reason.map(Self.unescaped)))
                }
                // Each (domain, platform): the domain page, the API's single object and list say the state of
                // the app's worst cell there, and the domain's reason (when it is the platform's) is that cell's.
                for (id, byPlatform) in cells {
                    let domain = try #require(try db.domain(id: id))
                    let page = client.get("/domains/\(id)").bodyText
                    let single = api("/api/v1/domains/\(id)")
                    let item = listed.first { ($0["id"] as? Int).map(Int64.init) == id } ?? [:]
                    for (p, mine) in byPlatform {
                        let worst = mine.max { Self.rank($0.state) < Self.rank($1.state) }
                        let name = "\(domain.host) \(p.rawValue)"
                        disagreements += Self.disagreements(name + " state", [
                            ("worst cell", worst?.state), ("domain page", Self.columnState(page, platform: p)),
                            ("API single", single["\(p.rawValue)_state"] as? String), ("API list", item["\(p.rawValue)_state"] as? String),
                        ])
                        guard let reason = domain.lastReason, reason.platform == p, domain.lastVerdict != .pass else { continue }
                        domainReasonsCompared[p, default: 0] += 1
                        // The API names the reason's platform as a typed field, in the list and the single object.
                        disagreements += Self.disagreements(name + " reason platform", [
                            ("domain", p.rawValue), ("API single", single["reason_platform"] as? String), ("API list", item["reason_platform"] as? String),
                        ])
                        // The domain says its first unmet expectation and counts the rest ("(and 1 more unmet expectation)"),
                        // where the app's cells say one each.
                        let first = reason.text.range(of: " (and ").map { String(reason.text[..<$0.lowerBound]) + "." } ?? reason.text
                        let cellReason = mine.filter { $0.state == worst?.state }.map(\.reason).first { $0 == first }.map { _ in reason.text }
                            ?? worst?.reason
                        disagreements += Self.disagreements(name + " reason", [
                            ("worst cell", cellReason), ("domain", reason.text),
                            ("API single", (single["reason"] as? String).map { Self.withoutPlatform($0, p) }),
                            ("API list", (item["reason"] as? String).map { Self.withoutPlatform($0, p) }),
                            ("domain page", Self.unescaped(PlatformSeamTests.text(page)).contains(reason.text) ? reason.text : "not shown"),
                        ])
                    }
                }
                // Scenarios that fail or warn on each platform, so the domain's own reason was weighed on both.
                #expect(domainReasonsCompared[.apple, default: 0] >= 10 && domainReasonsCompared[.android, default: 0] >= 5, "\(domainReasonsCompared)")
                // The watched URLs fail their domains on the platform that watches them, and the app's cells with them.
                for (label, platform) in [("good", Platform.apple), ("al-dynamic", .android)] {
                    let id = try #require(try db.domainID(host: fleet.host(label), wildcard: false))
                    // What the check stored and expected of Android, to read when it fails.
                    let stored = "\(String(describing: try db.checks(domainID: id, onlyChanges: false, limit: 1).first?.android?.watchedURLs)) \(try db.androidExpectations(domainIDs: [id]).map(\.watchedURLs)) \(try db.appWatchedURLs(appID: appRecord.id))"
                    #expect(cells[id]?[platform]?.contains { $0.state == "failing" && $0.reason?.contains("/account") == true } == true,
                            "\(label): \(String(describing: cells[id])) \(stored)")
                }
                #expect(disagreements.isEmpty, "\(disagreements.count) disagreements:\n\(disagreements.joined(separator: "\n"))")
            }
        }
    }

    /// "a: x, b: y" when the surfaces do not all say the same (timings aside); nothing when they do.
    static func disagreements(_ what: String, _ said: [(String, String?)]) -> [String] {
        guard Set(said.map { $0.1.map(withoutTimings) ?? "none" }).count != 1 else { return [] }
        return [what + ": " + said.map { "\($0.0)=\($0.1 ?? "none")" }.joined(separator: " | ")]
    }

    /// How bad a state word is, for the worst of a domain's cells.
    static func rank(_ state: String) -> Int {
        [DomainState.passing, .warning, .failing].firstIndex { $0.rawValue == state } ?? -1
    }

    /// verify-app lets a copy that lags the origin (Apple's CDN, Google's) pass unless `--strict-cdn`: a
    /// release policy of the gate's own (`ReleaseGate.gateFindings`), which the monitor does not share.
    /// Undone here, so the rest of the case is compared as it is: the lag at the severity and in the
    /// words of its finding.
    static func withoutLagPolicy(_ gated: GateCase) -> GateCase {
        var monitored = gated
        let lags = [FindingDefinition.cdnStale, AndroidCheckFinding.googleStale]
        monitored.findings = gated.findings.map { finding in
            guard finding.severity == .info, let lag = lags.first(where: { $0.code == finding.code }),
                  let policy = finding.message.range(of: " The gate lets this pass") else { return finding }
            var counted = finding
            counted.severity = lag.severity
            counted.message = String(finding.message[..<policy.lowerBound])
            return counted
        }
        return monitored
    }

    /// A timed-out fetch's message says how long curl waited, to the millisecond: two fetches of the
    /// same scenario differ there only.
    static func withoutTimings(_ reason: String) -> String {
        reason.replacing(/after \d+ milliseconds/, with: "after N milliseconds")
    }

    /// The API's reason as people read it, without the platform's name the line carries for Android.
    static func withoutPlatform(_ line: String, _ platform: Platform) -> String {
        let name = platform.label + ": "
        return platform == .android && line.hasPrefix(name) ? String(line.dropFirst(name.count)) : line
    }

    static func unescaped(_ html: String) -> String {
        html.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }

    /// Leases every domain and runs its check, all at once (the timing-out scenarios wait together).
    static func checkEveryDomain(_ pipeline: CheckPipeline) async throws {
        let db = pipeline.database
        try db.execute("UPDATE domains SET next_check_at = now() - interval '1 second'")
        let leased = try db.leaseDueDomains(limit: 500, lease: .seconds(300), worker: "agreement")
        let expectations = Dictionary(grouping: try db.expectations(domainIDs: leased.map(\.id)), by: \.domainID)
        let histories = try db.domainHistories(domainIDs: leased.map(\.id))
        let android = Dictionary(grouping: try db.androidExpectations(domainIDs: leased.map(\.id)), by: \.domainID)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for domain in leased {
                // As the scheduler hands them over (DomainScheduler): Android's expectations with their watched URLs.
                let rows = expectations[domain.id] ?? [], androidRows = android[domain.id] ?? [], history = histories[domain.id]
                group.addTask {
                    _ = try await pipeline.run(domain, expectations: Expectations(rows: rows, android: androidRows), android: androidRows.map(\.app),
                                               history: history)
                }
            }
            try await group.waitForAll()
        }
    }

    /// `verify-app`'s cases for the app: Apple's entries and Android's manifest, each host fetched once.
    static func gate(_ fetcher: Fetcher, entries: [String], manifest: String, urls: [String], appleHosts: [String],
                     androidHosts: [String]) async throws -> [GateCase] {
        let entitlements = try EntitlementsReader.read(entries: entries)
        let androidManifest = try AndroidManifestReader.read(Array(manifest.utf8))
        let expected = [AndroidAppExpectation(packageName: package, fingerprints: [FleetAssetLinks.appSigningKey])]
        var apple: [String: ReleaseGate.HostCheck] = [:], android: [String: ReleaseGate.AndroidHostCheck] = [:]
        try await withThrowingTaskGroup(of: (String, ReleaseGate.HostCheck?, ReleaseGate.AndroidHostCheck?).self) { group in
            for host in appleHosts {
                let name = try HostName(host)
                group.addTask { (host, ReleaseGate.HostCheck(report: await fetcher.check(name, plan: .everything).report, seconds: 0), nil) }
            }
            for host in androidHosts {
                let name = try HostName(host)
                group.addTask {
                    (host, nil, ReleaseGate.AndroidHostCheck(report: await fetcher.checkAndroid(name, expectations: expected).report, seconds: 0))
                }
            }
            for try await (host, a, b) in group {
                if let a { apple[host] = a }
                if let b { android[host] = b }
            }
        }
        return ReleaseGate.evaluate(entitlements: entitlements, appIDs: [try AppID(typed: appleID)], urls: urls, checks: apple, strictCDN: false).cases
            + ReleaseGate.evaluateAndroid(manifest: androidManifest, apps: expected, urls: urls, checks: android, reportUnclaimed: false,
                                          strictGoogle: false)
    }
}
