import AASA
@testable import Fetch
import Outbound
import Foundation
import TestSupport
import Testing
import Vocabulary

/// Every scenario of the fleet, checked end to end over real TLS, with the exact finding codes.
@Suite(.serialized) struct FleetScenarioTests {
    static let expected: [String: Set<String>] = [
        "good": [],
        "both": [],
        "stale304": [],   // its wrong 304 only answers conditional requests, which a full check never makes
        "gzip": [],
        "disagree": ["locations-disagree"],
        "rootonly": ["root-path-deprecated"],
        "redirect301": ["redirect-not-allowed", "cdn-failure"],
        "redirect302": ["redirect-not-allowed", "cdn-failure"],
        "redirect307": ["redirect-not-allowed", "cdn-failure"],
        "redirect308": ["redirect-not-allowed", "cdn-failure"],
        "redirecthttp": ["redirect-not-allowed", "cdn-failure"],
        "redirectloop": ["redirect-not-allowed", "cdn-failure"],
        // Apple's CDN followed the apex's redirect to www and names both URLs: devices get its copy.
        "redirectcdn": ["redirect-followed"],
        "www-redirectcdn": [],
        "notfound": ["http-status", "cdn-failure"],
        "apple403": ["http-status", "cdn-failure", "user-agent-differs"],
        "spa": ["content-type-not-json", "invalid-json", "cdn-failure"],
        "octet": ["content-type-not-json"],
        "notype": ["content-type-not-json"],
        "big": ["size-over-128k", "cdn-failure"],
        "bom": ["utf8-bom"],
        "invalid": ["invalid-json", "cdn-failure"],
        "signed": ["signed-file-deprecated"],
        "expired": ["tls-untrusted", "cdn-failure"],
        "wrongname": ["tls-untrusted", "cdn-failure"],
        "selfsigned": ["tls-untrusted", "cdn-failure"],
        "stale": ["cdn-stale"],
        "drip": ["fetch-failed", "cdn-failure"],
        "hang": ["fetch-failed", "cdn-failure"],
        "reset": ["fetch-failed", "cdn-failure"],
        // Control characters in keys and values: only the document's own findings (the CLI escapes them).
        "hostile": [],
    ]

    /// The scenarios whose outcome is a timeout. They are checked by a fetcher with short timeouts
    /// of its own, so that every other scenario gets the fleet's generous ones (on a slow, loaded
    /// machine a good answer must not become a timeout) and the test still ends within seconds.
    static let timingOut: Set<String> = ["hang", "drip"]

    @Test func everyScenarioGetsItsFindings() async throws {
        try await TestTLSFleet.with { fleet in
            #expect(Set(fleet.scenarios) == Set(Self.expected.keys), "a scenario without expectations, or the reverse")
            let fetcher = try Fetcher(.fleet(fleet))
            defer { fetcher.shutdown() }
            // hang never completes a handshake, and drip needs ~27 s for its 27-byte body: both
            // time out however slow the machine is. Their CDN answers (nginx) get 10 s.
            var hurried = try FetchConfiguration.fleet(fleet)
            hurried.connectTimeout = .seconds(5)
            hurried.totalTimeout = .seconds(10)
            let impatient = try Fetcher(hurried)
            defer { impatient.shutdown() }
            let hosts = try fleet.scenarios.filter { !Self.timingOut.contains($0) }.map { try HostName(fleet.host($0)) }
            let slowHosts = try fleet.scenarios.filter { Self.timingOut.contains($0) }.map { try HostName(fleet.host($0)) }
            let results = ResultBox()
            async let slowChecked: Void = impatient.check(slowHosts) { await results.add($0) }
            await fetcher.check(hosts) { await results.add($0) }
            await slowChecked
            let checks = await results.byLabel
            for (label, codes) in Self.expected.sorted(by: { $0.key < $1.key }) {
                let check = try #require(checks[label], "no result for \(label)")
                // The document's own findings are the validator's business (tested in AASATests);
                // here: exactly the transport and evaluation codes, plus whatever the validator says.
                let used = switch check.report.deviceLocation {
                case .root?: check.root
                case .cdn?: check.cdn
                case .wellKnown?: check.wellKnown
                case nil: nil as TransportFacts?
                }
                let documentCodes = used.map { Set(AASAValidator.validate($0.body).findings.map(\.code)) } ?? []
                #expect(Set(check.report.codes) == codes.union(documentCodes),
                        "\(label): \(check.report.findings.map { "\($0.code): \($0.message)" })")
                #expect(check.report.codes.count == Set(check.report.codes).count, "\(label): duplicate codes")
            }
            try Self.details(checks)
        }
    }

    /// Facts beyond the codes: what a device uses, the TLS reasons, sizes, headers, verdicts.
    static func details(_ checks: [String: AppleCheck]) throws {
        let good = try #require(checks["good"])
        #expect(good.report.verdict == .pass)
        #expect(good.report.deviceLocation == .wellKnown)
        #expect(good.wellKnown.status == 200)
        #expect(good.wellKnown.body == FleetFiles.good)
        #expect(good.wellKnown.ipAddress == "127.0.0.1")
        #expect(good.wellKnown.userAgent == "AASA-Bot/1.0.0")
        #expect(good.wellKnown.header("content-type") == "application/json")
        #expect(good.wellKnown.header("etag") != nil && good.wellKnown.header("last-modified") != nil)
        let tls = try #require(good.wellKnown.tls)
        #expect(tls.trusted)
        #expect(tls.subjectAltNames.contains("*.fleet.test"))
        #expect(tls.issuer?.contains("aasa-monitor test CA") == true)
        #expect((tls.notAfter ?? .distantPast) > Date())
        let timings = try #require(good.wellKnown.timings)
        #expect(timings.total >= timings.firstByte && timings.firstByte >= timings.tls && timings.tls >= timings.connect)
        #expect(good.root?.status == 404 && good.root?.tls?.trusted == true)
        #expect(good.cdn?.status == 200 && good.cdn?.header("apple-from") != nil && good.cdn?.header("age") == "5400")

        let rootOnly = try #require(checks["rootonly"])
        #expect(rootOnly.report.deviceLocation == .root && rootOnly.report.verdict == .warn)

        for code in ["301", "302", "307", "308"] {
            let check = try #require(checks["redirect\(code)"])
            #expect(check.wellKnown.status == Int(code))
            #expect(check.wellKnown.redirectTarget == "https://good.fleet.test/.well-known/apple-app-site-association")
            #expect(check.report.verdict == .fail)
        }
        #expect(checks["redirecthttp"]?.wellKnown.redirectTarget == "http://good.fleet.test/.well-known/apple-app-site-association")

        // Through the CDN the words say what devices get: nothing through a redirect, unless the CDN
        // followed it, which only its Apple-From shows.
        let redirect = try #require(checks["redirect301"]?.report.findings.first { $0.code == "redirect-not-allowed" })
        #expect(redirect.message.contains("Apple documents redirects as unsupported, and devices get no file through this one"), "\(redirect.message)")
        #expect(checks["redirecthttp"]?.report.findings.first { $0.code == "redirect-not-allowed" }?.message
                    .contains("follows no redirect to plain HTTP") == true)
        let followed = try #require(checks["redirectcdn"])
        #expect(followed.wellKnown.status == 308 && followed.report.deviceLocation == .cdn && followed.report.verdict == .warn)
        #expect(followed.report.document?.applinks != nil, "the CDN's copy is the file devices read")
        let note = try #require(followed.report.findings.first { $0.code == "redirect-followed" })
        #expect(note.severity == .warning)
        #expect(note.message.contains("Apple documents redirects as unsupported; Apple's CDN currently follows this one — Apple-From lists both URLs (https://redirectcdn.fleet.test/.well-known/apple-app-site-association, https://www-redirectcdn.fleet.test/.well-known/apple-app-site-association)"), "\(note.message)")

        let apple403 = try #require(checks["apple403"])
        #expect(apple403.wellKnown.status == 403 && apple403.plainUserAgent?.status == 200)
        #expect(apple403.report.findings.first { $0.code == "user-agent-differs" }?.severity == .error)
        #expect(apple403.cdn?.header("apple-failure-reason") == "SWCERR00101 Bad HTTP Response: 403 Forbidden")

        let big = try #require(checks["big"])
        #expect(big.wellKnown.decodedSize == FleetFiles.large.count && !big.wellKnown.bodyTruncated)

        let gzip = try #require(checks["gzip"])
        #expect(gzip.wellKnown.header("content-encoding") == "gzip")
        #expect(gzip.wellKnown.decodedSize == FleetFiles.compressible.count)
        #expect((gzip.wellKnown.wireSize ?? .max) < FleetFiles.compressible.count)

        #expect(checks["expired"]?.wellKnown.failure?.kind == .tlsExpired)
        #expect(checks["wrongname"]?.wellKnown.failure?.kind == .tlsWrongHost, "\(String(describing: checks["wrongname"]?.wellKnown.failure))")
        #expect(checks["selfsigned"]?.wellKnown.failure?.kind == .tlsUntrusted)
        // The second probe (verification off) still records what the certificate says.
        #expect(checks["expired"]?.wellKnown.tls?.notAfter.map { $0 < Date() } == true)
        #expect(checks["wrongname"]?.wellKnown.tls?.subjectAltNames == ["other.invalid"])
        #expect(checks["selfsigned"]?.wellKnown.tls?.trusted == false)
        #expect(checks["selfsigned"]?.wellKnown.tls?.subject?.contains("selfsigned.fleet.test") == true)

        #expect(checks["hang"]?.wellKnown.failure?.kind == .timeout)
        #expect(checks["drip"]?.wellKnown.failure?.kind == .timeout)
        #expect(checks["reset"]?.wellKnown.failure?.kind == .reset, "\(String(describing: checks["reset"]?.wellKnown.failure))")
        #expect(checks["hang"]?.report.couldNotCheck == true && checks["reset"]?.report.couldNotCheck == true)
        #expect(checks["good"]?.report.couldNotCheck == false)

        let stale = try #require(checks["stale"])
        #expect(stale.report.findings.first { $0.code == "cdn-stale" }?.message.contains("1 h 30 min old") == true)
    }
}

/// The device's direct route (an entitlement's `?mode=`): the fetcher follows an https redirect as
/// the device does, each hop pinned and judged, and the finding is a warning with its own words.
@Suite(.serialized) struct DirectRouteFleetTests {
    @Test func anHTTPSRedirectIsFollowedAndReportedAsAWarning() async throws {
        try await TestTLSFleet.with { fleet in
            // As `check --mode` runs it: devices in an alternate mode do not read Apple's CDN.
            var configuration = try FetchConfiguration.fleet(fleet)
            configuration.checkCDN = false
            let fetcher = try Fetcher(configuration)
            defer { fetcher.shutdown() }
            let good = "https://good.fleet.test/.well-known/apple-app-site-association"
            for code in [301, 302, 307, 308] {
                let check = await fetcher.check(try HostName(fleet.host("redirect\(code)")), plan: .everythingDirect)
                let from = "https://redirect\(code).fleet.test/.well-known/apple-app-site-association"
                #expect(check.wellKnown.status == 200 && check.wellKnown.url == good && check.wellKnown.body == FleetFiles.good)
                #expect(check.wellKnown.followedRedirects == [FollowedRedirect(url: from, status: code, location: good)])
                #expect(check.wellKnown.tls?.trusted == true)
                #expect(check.report.deviceLocation == .wellKnown && check.report.verdict == .warn)
                // Besides the good file's own infos, only the redirect's word.
                #expect(check.report.findings.filter { $0.severity != .info }.map(\.code) == ["redirect-followed"],
                        "\(code): \(check.report.findings)")
                let note = try #require(check.report.findings.first { $0.code == "redirect-followed" })
                #expect(note.severity == .warning)
                #expect(note.message == "\(from) redirects (\(code) → \(good)). Apple documents redirects as unsupported; a device fetching the file directly (an entitlement's ?mode=developer or managed) follows an https redirect, so it read \(good).")
                // The browser's repeat took the same route: no user-agent difference.
                #expect(check.plainUserAgent?.status == 200)
            }
            // Both requests of the hop went out: the redirect, then the target, as AASA-Bot.
            let requests = fleet.requests()
            #expect(requests.contains { $0.host == "redirect301.fleet.test" && $0.status == 301 })
            #expect(requests.contains { $0.host == "good.fleet.test" && $0.userAgent == "AASA-Bot/1.0.0" })
        }
    }

    @Test func anHTTPRedirectOrALoopIsNotAFile() async throws {
        try await TestTLSFleet.with { fleet in
            let fetcher = try Fetcher(.fleet(fleet))
            defer { fetcher.shutdown() }
            let http = await fetcher.check(try HostName(fleet.host("redirecthttp")), plan: .everythingDirect)
            #expect(http.wellKnown.status == 301 && http.wellKnown.followedRedirects == nil, "an http: target is not followed")
            #expect(http.report.verdict == .fail && http.report.deviceLocation == nil)
            #expect(http.report.findings.first { $0.code == "redirect-not-allowed" }?.message.contains("follows no redirect to plain HTTP") == true)

            let loop = await fetcher.check(try HostName(fleet.host("redirectloop")), plan: .everythingDirect)
            #expect(loop.wellKnown.status == 302 && loop.wellKnown.followedRedirects?.count == DirectRoute.maxRedirects)
            #expect(Set(loop.report.codes) == ["redirect-not-allowed", "redirect-followed", "cdn-failure"], "\(loop.report.findings)")
            #expect(loop.report.verdict == .fail)
            #expect(loop.report.findings.first { $0.code == "redirect-not-allowed" }?.message.contains("followed 5 redirects") == true)
        }
    }

    /// A redirect's target is resolved and judged by the outbound policy like the first host: one to a
    /// loopback address is refused before any connection, and the chain says where it pointed.
    @Test func aRedirectToARefusedAddressIsNotConnected() async throws {
        let fetcher = try Fetcher(FetchConfiguration(policy: OutboundPolicy(allowPrivateAddresses: false)))
        defer { fetcher.shutdown() }
        var first = TransportFacts(location: .wellKnown, url: "https://public.example/.well-known/apple-app-site-association", status: 301)
        first.redirectTarget = "https://127.0.0.1/.well-known/apple-app-site-association"
        let facts = await fetcher.followingRedirects(from: first, userAgent: "AASA-Bot/1.0.0")
        #expect(facts.status == nil && facts.failure?.kind == .addressRefused, "\(String(describing: facts.failure))")
        #expect(facts.url == "https://127.0.0.1/.well-known/apple-app-site-association")
        #expect(facts.followedRedirects?.map(\.location) == ["https://127.0.0.1/.well-known/apple-app-site-association"])
        let findings = TransportValidator.findings(for: facts)
        #expect(Set(findings.map(\.code)) == ["redirect-followed", "address-refused"])
    }
}

/// Collects results from concurrent checks.
actor ResultBox {
    private(set) var checks: [AppleCheck] = []
    func add(_ check: AppleCheck) { checks.append(check) }
    var byLabel: [String: AppleCheck] {
        Dictionary(checks.map { (String($0.host.ascii.prefix { $0 != "." }), $0) }, uniquingKeysWith: { a, _ in a })
    }
}
