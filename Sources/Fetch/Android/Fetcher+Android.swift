import AssetLinks
import Outbound
import Foundation
import Vocabulary

extension Fetcher {
    /// One Android check of `host` (assetlinks-spec.md §2, §6, §10): the file as Google's fetcher sees it
    /// (HTTPS, trusted certificate, 200, no redirect followed, Content-Type, size), the same URL with a
    /// browser's and Android's user agent, every include (budget 10) fetched the same way, and Google's
    /// Digital Asset Links API when `configuration.googleDAL` is set. Outbound policy, pinning and limits
    /// apply as for the AASA. Never throws: a domain's problems come back as findings.
    ///
    /// - Parameters:
    ///   - expectations: the Android apps the file must verify (package + fingerprints).
    ///   - fileRequired: the domain is watched for Android only, so a missing file fails even when no app
    ///     is expected (`AndroidCheckFacts.fileRequired`).
    ///   - originChangedSecondsAgo: when the history knows the origin's file changed, how long ago; Google's
    ///     copy may lag by its maxAge plus an hour before that is a warning.
    public func checkAndroid(_ host: HostName, expectations: [AndroidAppExpectation] = [], fileRequired: Bool = false,
                             originChangedSecondsAgo: Double? = nil, plan: PlatformPlan = .everything) async -> AndroidCheck {
        await checkAndroid(host, expectations: expectations, fileRequired: fileRequired, originChangedSecondsAgo: originChangedSecondsAgo,
                           pin: nil, plan: plan)
    }

    /// Apple's check and the Android check of one domain at once: one name resolution, and the Android
    /// requests ride on the connection of the AASA fetch (curl waits to multiplex them on it over HTTP/2,
    /// or reuses it with keep-alive).
    public func checkPlatforms(_ host: HostName, android expectations: [AndroidAppExpectation] = [],
                               originChangedSecondsAgo: Double? = nil, apple applePlan: PlatformPlan = .everything,
                               androidPlan: PlatformPlan = .everything) async -> PlatformChecks {
        let pinned = await pin(host.ascii)
        // Apple's fetch reads the certificate when it is due; Android's rides on its connection, so
        // that connection is opened before Android's first request starts.
        var androidPlan = androidPlan
        androidPlan.certificateDue = false
        var opened: TransportFacts?
        if applePlan.certificateDue, case .success(let target) = pinned {
            opened = await openingFetch(host, target: target, plan: applePlan)
        }
        async let apple = check(host, pinned: pinned, plan: applePlan, opened: opened)
        async let android = checkAndroid(host, expectations: expectations, originChangedSecondsAgo: originChangedSecondsAgo,
                                         pin: pinned, plan: androidPlan)
        return PlatformChecks(apple: await apple, android: await android)
    }

    func checkAndroid(_ host: HostName, expectations: [AndroidAppExpectation], fileRequired: Bool = false, originChangedSecondsAgo: Double?,
                      pin pinned: Pin?, plan: PlatformPlan = .everything) async -> AndroidCheck {
        let started = Date()
        let url = AndroidCheck.fileURL(for: host)
        // Google's answer is compared with the origin's file, and the comparisons with its answer.
        let plan = plan.unconditional(if: (configuration.googleDAL != nil && plan.copyDue)
            || (plan.comparisonsDue && configuration.compareUserAgents))
        async let googleAnswer: GoogleAnswer? = plan.copyDue ? askGoogle(about: host, expectations: expectations) : nil
        let pinned = if let pinned { pinned } else { await pin(host.ascii) }
        var origin: TransportFacts
        var others: [TransportFacts] = []
        var trailingDot: TransportFacts?, robots: TransportFacts?
        // A name that does not resolve leaves nothing to compare: no earlier comparison is carried over it.
        var compared = true
        switch pinned {
        case .failure(let failure, let dns):
            origin = .unresolved(url: url, failure: failure, dns: dns, userAgent: configuration.googleUserAgent)
        case .success(let target):
            // A full handshake when the certificate is due (a domain watched for Android only reads it here),
            // on a connection opened before the comparisons start, so they ride on it.
            let opened: TransportFacts? = plan.certificateDue
                ? await transfer(.wellKnown, url: url, host: host.ascii, target: target, userAgent: configuration.googleUserAgent,
                                 freshConnection: true, ifNoneMatch: plan.ifNoneMatch)
                : nil
            // Due comparisons start with Google's fetch; the others wait to see its answer (`PlatformPlan`).
            async let comparedNow = plan.comparisonsDue ? otherUserAgents(url, host: host, target: target) : []
            if let opened {
                origin = opened
            } else {
                origin = await transfer(.wellKnown, url: url, host: host.ascii, target: target, userAgent: configuration.googleUserAgent,
                                        ifNoneMatch: plan.ifNoneMatch)
            }
            others = await comparedNow
            compared = plan.comparisonsDue || plan.comparesAfter(origin)
            if !plan.comparisonsDue, compared {
                others = await otherUserAgents(url, host: host, target: target)
            }
            // The host's fully-qualified form and robots.txt are comparisons too: asked with the others.
            if compared, configuration.compareUserAgents, AndroidCheckEvaluation.servesStatusOK(origin) {
                (trailingDot, robots) = await hostFormAndRobots(host, target: target)
            }
        }
        var google = await googleAnswer
        if google == nil, plan.asksCopyAfter(origin) {
            google = await askGoogle(about: host, expectations: expectations)
        }
        let googleCarried = google == nil && configuration.googleDAL != nil
        let carried = plan.carried.filter { finding in
            (!compared && AndroidCheckEvaluation.comparisonCodes.contains(finding.code))
                || (googleCarried && AndroidCheckEvaluation.googleCodes.contains(finding.code))
        }

        // The origin's file is read once, here: its includes are walked from that reading, and the
        // evaluation judges the same report.
        let document = AndroidCheckEvaluation.servesStatusOK(origin) ? AssetLinksValidator.validate(origin.body) : nil
        let (includes, includeFacts) = await resolveIncludes(of: document)
        var facts = AndroidCheckFacts(
            origin: origin, otherUserAgents: others, includes: includes, google: google, expectations: expectations,
            wildcard: host.isWildcard, originChangedSecondsAgo: originChangedSecondsAgo, trailingDot: trailingDot, robots: robots)
        facts.document = document
        facts.carried = carried
        facts.googleCarried = googleCarried
        facts.fileRequired = fileRequired
        let report = AndroidCheckEvaluation.evaluate(facts)
        return AndroidCheck(host: host, startedAt: started, finishedAt: Date(), origin: origin, otherUserAgents: others,
                            includes: includeFacts, google: google, report: report,
                            asked: SecondaryAsked(copy: google != nil, comparisons: compared,
                                                 certificate: plan.certificateDue && origin.tls != nil, fullFetch: plan.ifNoneMatch == nil),
                            notModified: plan.notModified(origin))
    }

    /// Every include of the origin's file (`document`, nil when it served none), fetched the way Google's
    /// fetcher does and walked within `IncludeResolver.budget`; nil when the file has none.
    private func resolveIncludes(of document: AssetLinksReport?) async -> (IncludeResolver.Resolution?, [TransportFacts]) {
        guard let document, let file = document.file, !file.includes.isEmpty else { return (nil, []) }
        var walk = IncludeWalk(document.reading)
        var fetched: [TransportFacts] = []
        while let includeURL = walk.next() {
            let facts = await fetchInclude(includeURL)
            fetched.append(facts)
            if AndroidCheckEvaluation.servesStatusOK(facts), !facts.bodyTruncated {
                walk.receive(facts.body)
            } else {
                walk.receive(nil, failure: AndroidCheckEvaluation.outcome(facts))
            }
        }
        return (walk.resolution, fetched)
    }

    /// The file with a browser's and Android's user agent (when the comparison is on), in that order.
    private func otherUserAgents(_ url: String, host: HostName, target: PinnedTarget) async -> [TransportFacts] {
        let agents = configuration.compareUserAgents ? [configuration.plainUserAgent, configuration.androidUserAgent] : []
        return await withTaskGroup(of: (Int, TransportFacts).self) { group in
            for (index, agent) in agents.enumerated() {
                group.addTask {
                    (index, await self.transfer(.wellKnown, url: url, host: host.ascii, target: target, userAgent: agent, certificate: false))
                }
            }
            var results: [(Int, TransportFacts)] = []
            for await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// Two reads beside a served file, on its pinned addresses, as Google's fetcher: the file at the
    /// host's fully-qualified form (`https://HOST./…`, which curl resolves and sends in `Host` with the
    /// dot, so the pin is keyed by that name too; a server or CDN can route it differently), and
    /// `/robots.txt`. Asked only when the file is served: without one, neither can change a verdict.
    private func hostFormAndRobots(_ host: HostName, target: PinnedTarget) async -> (TransportFacts, TransportFacts) {
        let agent = configuration.googleUserAgent
        async let dotted = transfer(.wellKnown, url: "https://\(host.ascii)./.well-known/assetlinks.json", host: host.ascii + ".",
                                    target: target, userAgent: agent, certificate: false)
        async let robots = transfer(.wellKnown, url: "https://\(host.ascii)/robots.txt", host: host.ascii, target: target,
                                    userAgent: agent, certificate: false)
        return (await dotted, await robots)
    }

    /// An include is fetched like the main file: Google's user agent, no redirect, policy and pinning.
    private func fetchInclude(_ text: String) async -> TransportFacts {
        let parsed: OutboundURL
        do {
            parsed = try OutboundURL(text)
        } catch {
            return TransportFacts(location: .wellKnown, url: text, failure: FetchFailure(kind: .other, message: error.description))
        }
        guard parsed.scheme == "https" else {
            return TransportFacts(location: .wellKnown, url: text,
                                  failure: FetchFailure(kind: .notHTTPS, message: "an include of an HTTPS file must be HTTPS"))
        }
        switch await pin(parsed.host, port: parsed.port) {
        case .failure(let failure, _):
            return TransportFacts(location: .wellKnown, url: parsed.url, failure: failure)
        case .success(let target):
            return await transfer(.wellKnown, url: parsed.url, host: parsed.host, port: parsed.port, target: target,
                                  userAgent: configuration.googleUserAgent, certificate: false)
        }
    }
}
