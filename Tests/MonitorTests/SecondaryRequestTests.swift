import AssetLinks
import Fetch
import Foundation
import Outbound
import Store
import Testing
import TestSupport
import Vocabulary
@testable import Monitor

/// When a check asks Apple's CDN, Google's API and the comparisons (`SecondaryCadence.applePlan` /
/// `androidPlan`): pure decisions from the last check and when each was last asked.
@Suite struct SecondaryCadenceTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let sha: @Sendable ([UInt8]) -> String = { SHA256.hex($0) }
    let file = Array(#"{"applinks":{"details":[]}}"#.utf8)

    func served(_ body: [UInt8]) -> TransportFacts {
        TransportFacts(location: .wellKnown, url: "https://a.example/.well-known/apple-app-site-association", status: 200, body: body)
    }

    func lastApple(cdn: CDNSummary? = CDNSummary(served: true)) -> CheckSummary {
        var last = AppleResult(verdict: .pass, originReachable: true, versionSHA256: sha(file), cdn: cdn)
        last.wellKnownAnswer = OriginAnswer.key(served(file), sha256: sha)
        last.findings = [Finding(code: "user-agent-differs", severity: .warning, message: "m"), Finding(code: "size", severity: .info, message: "m")]
        return CheckSummary(checkedAt: now, reachable: true, apple: last)
    }

    @Test func noLastCheckAsksEverything() {
        let plan = SecondaryCadence().applePlan(last: nil, asked: LastAsked(), now: now, sha256: sha)
        #expect(plan.copyDue && plan.comparisonsDue && !plan.sameAsLast(served(file)))
    }

    @Test func eachIsDueAtItsOwnCadence() {
        let cadence = SecondaryCadence(appleCDN: 3600, googleAPI: 3600, comparisons: 86_400)
        let recent = LastAsked(appleCDN: now.addingTimeInterval(-600), googleAPI: now.addingTimeInterval(-600),
                               comparisons: now.addingTimeInterval(-600))
        let quiet = cadence.applePlan(last: lastApple(), asked: recent, now: now, sha256: sha)
        #expect(!quiet.copyDue && !quiet.comparisonsDue)
        #expect(quiet.carried.map(\.code) == ["user-agent-differs", "size"], "the fetcher keeps only the codes of what it skipped")
        let later = cadence.applePlan(last: lastApple(), asked: recent, now: now.addingTimeInterval(3600), sha256: sha)
        #expect(later.copyDue && !later.comparisonsDue)
        #expect(cadence.applePlan(last: lastApple(), asked: LastAsked(), now: now, sha256: sha).comparisonsDue, "never asked")
    }

    @Test func aLaggingOrFailingCDNIsAskedEveryCheckWhileTheOriginServes() {
        let recent = LastAsked(appleCDN: now, comparisons: now)
        #expect(SecondaryCadence().applePlan(last: lastApple(cdn: CDNSummary(served: true, matchesOrigin: false)), asked: recent,
                                             now: now, sha256: sha).copyDue)
        #expect(SecondaryCadence().applePlan(last: lastApple(cdn: CDNSummary(served: false, failureReason: "x")), asked: recent,
                                             now: now, sha256: sha).copyDue)
        var noFile = lastApple(cdn: CDNSummary(served: false, failureReason: "x"))
        noFile.apple?.versionSHA256 = nil
        #expect(!SecondaryCadence().applePlan(last: noFile, asked: recent, now: now, sha256: sha).copyDue,
                "a CDN without a file for a site without one says nothing new")
    }

    /// A redirecting origin whose CDN copy devices read (`redirect-followed`): that copy is the file,
    /// asked on every check, so the day the CDN stops following is seen on that check.
    @Test func theCDNCopyOfAFollowedRedirectIsAskedEveryCheck() {
        let recent = LastAsked(appleCDN: now, comparisons: now)
        var followed = lastApple(cdn: CDNSummary(served: true))
        followed.apple?.versionSHA256 = nil
        followed.apple?.findings = [Finding(code: "redirect-followed", severity: .warning, message: "m")]
        #expect(SecondaryCadence().applePlan(last: followed, asked: recent, now: now, sha256: sha).copyDue)
        followed.apple?.findings = [Finding(code: "redirect-not-allowed", severity: .error, message: "m")]
        #expect(!SecondaryCadence().applePlan(last: followed, asked: recent, now: now, sha256: sha).copyDue,
                "a redirect nobody follows waits for the CDN's cadence")
    }

    @Test func theAnswerMovesWithTheFileOrTheStatus() {
        let plan = SecondaryCadence().applePlan(last: lastApple(), asked: LastAsked(appleCDN: now, comparisons: now), now: now, sha256: sha)
        #expect(plan.sameAsLast(served(file)))
        #expect(!plan.sameAsLast(served(file + [32])))
        #expect(!plan.sameAsLast(TransportFacts(location: .wellKnown, url: "u", status: 404)))
        // Unmoved and not blocked-looking: nothing more is asked after the primary fetch.
        #expect(!plan.comparesAfter(served(file)) && !plan.asksCopyAfter(served(file)))
        #expect(plan.comparesAfter(served(file + [32])) && plan.asksCopyAfter(served(file + [32])))
    }

    @Test func blockedLookingAnswersAreComparedEveryTime() {
        func status(_ code: Int) -> TransportFacts { TransportFacts(location: .wellKnown, url: "u", status: code) }
        #expect(PlatformPlan.looksBlocked(status(403)) && PlatformPlan.looksBlocked(status(429)) && PlatformPlan.looksBlocked(status(503)))
        #expect(!PlatformPlan.looksBlocked(status(404)) && !PlatformPlan.looksBlocked(status(200)) && !PlatformPlan.looksBlocked(status(410)))
        #expect(PlatformPlan.looksBlocked(TransportFacts(location: .wellKnown, url: "u", failure: FetchFailure(kind: .reset, message: "r"))))
        #expect(!PlatformPlan.looksBlocked(TransportFacts(location: .wellKnown, url: "u", failure: FetchFailure(kind: .dns, message: "d"))))
        var last = lastApple()
        last.apple?.wellKnownAnswer = OriginAnswer.key(status(403), sha256: sha)
        let plan = SecondaryCadence().applePlan(last: last, asked: LastAsked(appleCDN: now, comparisons: now), now: now, sha256: sha)
        #expect(plan.sameAsLast(status(403)) && plan.comparesAfter(status(403)), "the same 403 again is compared again")
    }

    /// A retry confirming an alert comes a minute after the last check: a lagging or failing CDN is
    /// not asked again then (only at its cadence, or when its copy is the file devices read).
    @Test func aRetryConfirmingAnAlertLeavesTheCopiesToTheirCadence() {
        let recent = LastAsked(appleCDN: now, googleAPI: now, comparisons: now)
        let lagging = lastApple(cdn: CDNSummary(served: true, matchesOrigin: false))
        #expect(!SecondaryCadence().applePlan(last: lagging, asked: recent, now: now, confirming: true, sha256: sha).copyDue)
        #expect(SecondaryCadence().applePlan(last: lagging, asked: LastAsked(), now: now, confirming: true, sha256: sha).copyDue,
                "due at its cadence all the same")
        var followed = lastApple()
        followed.apple?.findings.append(Finding(code: FindingDefinition.redirectFollowed.code, severity: .warning, message: "m"))
        #expect(SecondaryCadence().applePlan(last: followed, asked: recent, now: now, confirming: true, sha256: sha).copyDue)
        var google = GoogleVerdict(errorCodes: [], statementCount: 1, notLinked: [], staleBeyondGrace: false)
        google.matchesOrigin = false
        let android = AndroidResult(verdict: .pass, serves: true, versionSHA256: "s", google: google)
        #expect(!SecondaryCadence().androidPlan(last: android, asked: recent, now: now, confirming: true, sha256: sha).copyDue)
    }

    @Test func googleIsWatchedAfterAChangeAndWhileItReportsAProblem() {
        let recent = LastAsked(googleAPI: now, comparisons: now)
        var agreeing = GoogleVerdict(errorCodes: [], statementCount: 1, notLinked: [], staleBeyondGrace: false)
        agreeing.matchesOrigin = true
        let settled = AndroidResult(verdict: .pass, serves: true, versionSHA256: "s", google: agreeing)
        #expect(!SecondaryCadence().androidPlan(last: settled, asked: recent, now: now, sha256: sha).copyDue)
        var lagging = settled
        lagging.google?.matchesOrigin = false
        #expect(SecondaryCadence().androidPlan(last: lagging, asked: recent, now: now, sha256: sha).copyDue, "a lagging copy, until it catches up")
        var erring = settled
        erring.google?.errorCodes = ["ERROR_CODE_FETCH_ERROR"]
        #expect(SecondaryCadence().androidPlan(last: erring, asked: recent, now: now, sha256: sha).copyDue)
        var unwatched = erring
        unwatched.serves = false
        #expect(!SecondaryCadence().androidPlan(last: unwatched, asked: recent, now: now, sha256: sha).copyDue,
                "a site with no file and no app expected is asked at the cadence only")
    }
}

/// The secondary requests against the real fleet and database: how many requests a check makes, and
/// that skipping them hides nothing (the fleet's access log counts them).
@Suite(.serialized) struct SecondaryRequestTests {
    /// Production's fetcher: the CDN, Google's API, both comparisons and the root location on.
    func fullFetcher(_ fleet: TestTLSFleet) throws -> Fetcher {
        try Fetcher(FetchConfiguration(
            policy: OutboundPolicy(allowPrivateAddresses: true), cdnBase: fleet.cdnBase, checkCDN: true,
            rootLocation: .always, compareUserAgents: true, googleDAL: GoogleDALSettings(base: fleet.googleDALBase),
            extraCAFile: fleet.caFile, connectTo: try fleet.connectTo.map { try ConnectToRule(parsing: $0) },
            connectTimeout: .seconds(30), totalTimeout: .seconds(60)))
    }

    func withFullPipeline(_ body: (TestTLSFleet, Database, CheckPipeline) async throws -> Void) async throws {
        try await TestTLSFleet.with { fleet in
            try writeDefaultFile(fleet, shopFile())
            let fetcher = try fullFetcher(fleet)
            defer { fetcher.shutdown() }
            try await TestPostgres.withDatabase { database in
                try await body(fleet, database, CheckPipeline(database: database, fetcher: fetcher))
            }
        }
    }

    /// Runs one round and returns the requests nginx logged during it.
    func round(_ fleet: TestTLSFleet, _ pipeline: CheckPipeline) async throws -> ([FleetRequest], [(LeasedDomain, CheckPipeline.Result)]) {
        let before = fleet.requests().count
        try makeAllDue(pipeline.database)
        let results = try await checkDueDomains(pipeline)
        // nginx writes each line as the request completes, before the client has read the answer.
        return (Array(fleet.requests().dropFirst(before)), results)
    }

    @Test func anUnchangedCheckMakesOnlyThePlatformsOwnRequests() async throws {
        try await withFullPipeline { fleet, database, pipeline in
            // Apple's file at .well-known with its CDN copy; no assetlinks.json (Google is asked at its cadence).
            _ = try database.importDomain(host: "good.fleet.test", displayName: "good.fleet.test", wildcard: false, appIDs: [])
            let (first, firstResults) = try await round(fleet, pipeline)
            let agents = Set(first.filter { $0.host == "good.fleet.test" }.map(\.userAgent))
            #expect(agents.count == 4, "AASA-Bot, GoogleAssociationService, a browser, Android: \(agents)")
            #expect(first.contains { $0.host == "cdn.fleet.test" } && first.contains { $0.host == "dal.fleet.test" })
            let findings = try #require(firstResults.first?.1.step.check.apple).findings

            let (second, secondResults) = try await round(fleet, pipeline)
            let own = second.filter { $0.host == "good.fleet.test" }
            #expect(own.map(\.userAgent).sorted() == ["AASA-Bot/1.0.0", "GoogleAssociationService"], "\(second)")
            #expect(!second.contains { $0.host == "cdn.fleet.test" || $0.host == "dal.fleet.test" }, "\(second)")
            let check = try #require(secondResults.first?.1.step.check)
            let apple = try #require(check.apple)
            #expect(apple.findings == findings, "what was not asked again stands as last seen")
            #expect(apple.cdn == firstResults.first?.1.step.check.apple?.cdn)
            #expect(check.android?.google == firstResults.first?.1.step.check.android?.google)
            #expect(try count(database, "SELECT count(*)::int FROM checks") == 1, "the second check is an unchanged repeat")

            // The file changes: the copy and the comparisons can say something new, so they are asked.
            try fleet.serve(Array(shopFile(apps: ["ABCDE12345.shop", "ABCDE12345.other"]).utf8),
                            at: "/.well-known/apple-app-site-association", on: "good")
            let (third, _) = try await round(fleet, pipeline)
            #expect(third.contains { $0.host == "cdn.fleet.test" }, "\(third)")
            #expect(third.contains { $0.host == "good.fleet.test" && $0.uri == "/apple-app-site-association" }, "the root location")
            #expect(third.contains { $0.host == "good.fleet.test" && !$0.userAgent.hasPrefix("AASA-Bot") && $0.uri.hasSuffix("association") },
                    "a browser's user agent")
        }
    }

    /// An apex that redirects to www, whose file Apple's CDN fetched through the redirect: the check
    /// judges the CDN's copy (the app is found, the redirect is a warning), and asks the CDN on every
    /// check, so the verdict does not fall back to "no file" on checks that would skip the CDN.
    @Test func aRedirectTheCDNFollowedIsAWarningOnEveryCheck() async throws {
        try await withFullPipeline { fleet, database, pipeline in
            let host = fleet.host("redirectcdn")
            _ = try database.importDomain(host: host, displayName: host, wildcard: false, appIDs: [(.applinks, FleetFiles.appID)],
                                          platforms: .apple)
            for turn in 1...3 {
                let (requests, results) = try await round(fleet, pipeline)
                let apple = try #require(results.first?.1.step.check.apple, "round \(turn)")
                #expect(apple.verdict == .warn, "round \(turn): \(apple.findings.map(\.code))")
                #expect(apple.findings.contains { $0.code == "redirect-followed" && $0.severity == .warning })
                #expect(!apple.findings.contains { $0.code == "redirect-not-allowed" })
                #expect(apple.expectations.missingAppIDs.isEmpty && apple.documentParsed, "round \(turn): the CDN's copy lists the app")
                #expect(requests.contains { $0.host == "cdn.fleet.test" && $0.uri == "/a/v1/\(host)" }, "round \(turn): \(requests)")
            }
        }
    }

    /// A domain every Apple link of which names an alternate mode is checked as those devices read
    /// it: directly, following its https redirect (a warning; the developer link, which ignores the
    /// CDN, warns); a domain an ordinary link claims keeps the CDN's route, where the redirect fails.
    @Test func aModeDomainFollowsItsRedirectAsItsDevicesDo() async throws {
        try await withFullPipeline { fleet, database, pipeline in
            func key(_ label: String) -> AppDomainKey { AppDomainKey(host: fleet.host(label), displayName: fleet.host(label), wildcard: false) }
            guard case .created = try database.createApp(AppDraft(
                name: "Fleet", appleAppIDs: [FleetFiles.appID],
                links: [AppLinkDraft(domain: key("redirect302"), platform: .apple, service: .applinks, developerMode: true),
                        AppLinkDraft(domain: key("redirect301"), platform: .apple, service: .applinks)]), intervalSeconds: 3600) else {
                Issue.record("app not created")
                return
            }
            let (requests, results) = try await round(fleet, pipeline)
            let byHost = Dictionary(uniqueKeysWithValues: results.map { ($0.0.host.ascii, $0) })
            let (directDomain, direct) = try #require(byHost[fleet.host("redirect302")])
            #expect(directDomain.directRoute)
            let directApple = try #require(direct.step.check.apple)
            #expect(directApple.findings.contains { $0.code == "redirect-followed" && $0.severity == .warning }, "\(directApple.findings.map(\.code))")
            #expect(!directApple.findings.contains { $0.code == "redirect-not-allowed" })
            #expect(directApple.expectations.missingAppIDs.isEmpty && directApple.versionSHA256 == SHA256.hex(FleetFiles.good))
            #expect(requests.contains { $0.host == "good.fleet.test" && $0.userAgent == "AASA-Bot/1.0.0" }, "the redirect's target was fetched")
            let link = AppLinkVerdict.evaluate(findings: directApple.findings, expectations: directApple.expectations, service: .applinks,
                                               appIDs: [FleetFiles.appID], developerMode: true)
            #expect(link.verdict == .warn, "\(String(describing: link.reason))")

            let (cdnDomain, viaCDN) = try #require(byHost[fleet.host("redirect301")])
            #expect(!cdnDomain.directRoute)
            #expect(viaCDN.step.check.apple?.findings.contains { $0.code == "redirect-not-allowed" && $0.severity == .error } == true)
        }
    }

    @Test func aSettledGoogleThatStartsReportingAnErrorIsSeenWhenItsCadenceComesRound() async throws {
        try await withFullPipeline { fleet, database, pipeline in
            let host = fleet.host("al-changing")
            _ = try database.importDomain(host: host, displayName: host, wildcard: false, appIDs: [])
            _ = try await round(fleet, pipeline)
            fleet.googleAPI.set(.mirror(["ERROR_CODE_FETCH_ERROR"]), for: host)
            let (quiet, unchanged) = try await round(fleet, pipeline)
            #expect(!quiet.contains { $0.host == "dal.fleet.test" }, "Google agreed 0 s ago: not asked (\(quiet))")
            #expect(unchanged.first?.1.step.check.android?.google?.errorCodes == [])
            // Its cadence comes round (the time stored on the domain is what a restarted worker reads too).
            try database.execute("UPDATE domains SET google_asked_at = now() - interval '7 hours'")
            let (asked, results) = try await round(fleet, pipeline)
            #expect(asked.contains { $0.host == "dal.fleet.test" })
            #expect(results.first?.1.step.check.android?.google?.errorCodes == ["ERROR_CODE_FETCH_ERROR"])
            // Now it reports a problem: asked on every check until it agrees again.
            let (next, _) = try await round(fleet, pipeline)
            #expect(next.contains { $0.host == "dal.fleet.test" })
        }
    }

    @Test func aFirewallBlockingOnlyGoogleIsNamedOnEveryCheck() async throws {
        try await withFullPipeline { fleet, database, pipeline in
            _ = try database.importDomain(host: "al-blocked.fleet.test", displayName: "al-blocked.fleet.test", wildcard: false, appIDs: [])
            for _ in 0..<2 {
                let (requests, results) = try await round(fleet, pipeline)
                let android = try #require(results.first?.1.step.check.android)
                #expect(android.findings.contains { $0.code == "fetcher-blocked" && $0.severity == .error }, "\(android.findings.map(\.code))")
                // Google's fetcher got a 403: the browser's and Android's answers are asked again each time.
                #expect(requests.filter { $0.host == "al-blocked.fleet.test" && $0.uri == "/.well-known/assetlinks.json" }.count == 3,
                        "\(requests)")
            }
        }
    }

    /// A first check, certificate due: the fresh AASA fetch opens its connection before Android's and the
    /// comparisons' requests start. Started side by side, Android's request sometimes won the race and
    /// the check made two full handshakes.
    @Test func androidsRequestsRideOnTheAASAConnection() async throws {
        try await TestTLSFleet.with { fleet in
            let fetcher = try fullFetcher(fleet)
            defer { fetcher.shutdown() }
            let before = fleet.requests().count
            _ = await fetcher.checkPlatforms(try HostName("al-good.fleet.test"))
            let own = fleet.requests().dropFirst(before).filter { $0.host == "al-good.fleet.test" }
            #expect(own.count == 8, "AASA twice (two agents), root, assetlinks three times, robots.txt, assetlinks at HOST.: \(own)")
            // One handshake for the site: every request of the check shares the `.well-known` fetch's
            // connection, except the file asked at the fully-qualified name (`HOST.`), which curl
            // keys as another host and so opens its own.
            let aasa = try #require(own.first { $0.uri == "/.well-known/apple-app-site-association" && $0.userAgent.hasPrefix("AASA-Bot") })
            let apart = own.filter { $0.connection != aasa.connection }
            #expect(apart.count == 1 && apart.first?.uri == "/.well-known/assetlinks.json", "\(own)")
        }
    }

    /// The same after other hosts: the fleet's one connect-to rule sends every host to one address,
    /// which libcurl 7.88 keys as one bundle; once a connection there has spoken HTTP/2, CURLOPT_PIPEWAIT
    /// no longer held a host's second request for its first connection, and each check paid two full
    /// handshakes (issue #17's 1M bench). Several hosts at once, as a worker checks them, between
    /// certificate cadences (the checks of 5 hours in 6). When the certificate is due, the AASA fetch
    /// opens a fresh connection before any other request of the check starts (the test above).
    @Test func everyHostsRequestsShareOneConnectionBehindOneConnectToRule() async throws {
        try await TestTLSFleet.with { fleet in
            let fetcher = try fullFetcher(fleet)
            defer { fetcher.shutdown() }
            let hosts = ["al-good", "al-lowercase", "al-uploadkey", "al-octet", "al-dynamic", "al-lag"].map { "\($0).fleet.test" }
            let names = try hosts.map { try HostName($0) }
            let apple = { var plan = PlatformPlan.everything; plan.certificateDue = false; return plan }()
            let before = fleet.requests().count
            _ = await fetcher.checkPlatforms(names[0], apple: apple)
            await withTaskGroup(of: Void.self) { group in
                for name in names.dropFirst() {
                    group.addTask { _ = await fetcher.checkPlatforms(name, apple: apple) }
                }
            }
            let requests = fleet.requests().dropFirst(before)
            for host in hosts {
                let own = requests.filter { $0.host == host }
                let aasa = try #require(own.first { $0.uri == "/.well-known/apple-app-site-association" && $0.userAgent.hasPrefix("AASA-Bot") })
                // Only the fully-qualified form (HOST.) is another host to curl.
                let apart = own.filter { $0.connection != aasa.connection }
                #expect(apart.count == 1 && apart.first?.uri == "/.well-known/assetlinks.json", "\(host): \(own)")
            }
        }
    }
}
