import AASA
import Foundation
import Outbound
import Vocabulary

/// Fetches association files the way Apple's CDN does — HTTPS only, no redirects (but on a device's
/// direct route, `PlatformPlan.appleRoute`), capped bodies — under the outbound policy, with every
/// transfer on one curl multi loop.
///
/// Never throws for a domain's problems: they come back as `TransportFacts.failure` and findings.
public final class Fetcher: Sendable {
    public let configuration: FetchConfiguration
    private let loop: TransferLoop
    private let resolvers: ResolverPool
    private let cdn: CDNEndpoint
    private let caBundle: CABundle?

    public init(_ configuration: FetchConfiguration) throws(FetchSetupError) {
        self.configuration = configuration
        self.cdn = try CDNEndpoint(base: configuration.cdnBase)
        let trust = try TrustStore(configuration)
        self.caBundle = trust.bundle
        let settings = TransferSettings(
            caFile: trust.caFile,
            caPath: trust.caPath,
            bodyLimit: configuration.bodyLimit,
            measureLimit: max(configuration.measureLimit, configuration.bodyLimit),
            connectTimeoutMilliseconds: Int(configuration.connectTimeout.milliseconds),
            totalTimeoutMilliseconds: Int(configuration.totalTimeout.milliseconds))
        self.loop = TransferLoop(settings: settings, maxTotal: configuration.maxConnections,
                                 maxPerAddress: configuration.maxConnectionsPerAddress, tlsSessions: configuration.tlsSessions)
        self.resolvers = ResolverPool(resolver: configuration.resolver, threads: configuration.resolverThreads)
    }

    /// Transfers in flight and queued, as of the loop's last turn.
    public var statistics: FetcherStatistics { loop.statistics }

    /// Finishes queued transfers and stops the loop and resolver threads. Call once, when done.
    public func shutdown() {
        loop.shutdown()
        resolvers.shutdown()
    }

    /// One full check: both origin locations, Apple's CDN, the user-agent comparison, and the report.
    public func check(_ host: HostName, plan: PlatformPlan = .everything) async -> AppleCheck {
        await check(host, pinned: nil, plan: plan)
    }

    /// `pinned`: the host's resolved and judged addresses when the caller already has them (`checkPlatforms`).
    /// `plan`: which secondary requests (CDN, plain user agent, root location) can change the answer.
    func check(_ host: HostName, pinned: Pin?, plan: PlatformPlan = .everything, opened: TransportFacts? = nil) async -> AppleCheck {
        let started = Date()
        // The CDN's copy is compared with the origin's file, and the comparisons with its answer: when
        // either is asked now, the file itself is needed.
        // The direct route's redirects lead to another file than the stored one's ETag names.
        let plan = plan.unconditional(if: (configuration.checkCDN && plan.copyDue) || plan.appleRoute == .direct
            || (plan.comparisonsDue && (configuration.compareUserAgents || configuration.rootLocation == .always)))
        async let cdnFacts: TransportFacts? = configuration.checkCDN && plan.copyDue ? fetchCDN(for: host) : nil
        let pinned = if let pinned { pinned } else { await pin(host.ascii) }
        let origin: AppleOrigin
        switch pinned {
        case .failure(let failure, let dns):
            // A name that does not resolve leaves nothing to compare: no earlier comparison is carried over it.
            origin = AppleOrigin(wellKnown: .unresolved(url: Self.wellKnownURL(host), failure: failure, dns: dns,
                                                         userAgent: configuration.appleUserAgent), compared: true)
        case .success(let target):
            origin = await appleOrigin(host, target: target, plan: plan, opened: opened)
        }
        var cdn = await cdnFacts
        if cdn == nil, configuration.checkCDN, plan.asksCopyAfter(origin.wellKnown) {
            cdn = await fetchCDN(for: host)
        }
        return appleCheck(host, startedAt: started, origin: origin, cdn: cdn, plan: plan)
    }

    /// What Apple's origin answered one check: `.well-known`, the root location, and `.well-known` with a
    /// browser's user agent; `compared`: the comparisons were made (or there was nothing to compare).
    struct AppleOrigin {
        var wellKnown: TransportFacts
        var root: TransportFacts?
        var plain: TransportFacts?
        var compared: Bool
    }

    static func wellKnownURL(_ host: HostName) -> String { "https://\(host.ascii)/.well-known/apple-app-site-association" }
    static func rootURL(_ host: HostName) -> String { "https://\(host.ascii)/apple-app-site-association" }

    /// Apple's origin on its pinned addresses: `.well-known`, the comparisons when due or when its answer
    /// calls for them, and the root location when `.well-known` serves nothing.
    private func appleOrigin(_ host: HostName, target: PinnedTarget, plan: PlatformPlan, opened: TransportFacts?) async -> AppleOrigin {
        // A due certificate is read on a connection of its own (`freshConnection`), opened before any
        // other request of the check starts, so those ride on it instead of opening one beside it.
        // `opened`: made already by `checkPlatforms`, before Android's requests started.
        let opened: TransportFacts? = if let opened { opened } else if plan.certificateDue { await openingFetch(host, target: target, plan: plan) } else { nil }
        // Due comparisons start with the `.well-known` fetch; the others wait to see its answer.
        let compareNow = plan.comparisonsDue
        async let comparedNow: (root: TransportFacts?, plain: TransportFacts?) = compareNow
            ? comparisons(host, target: target) : (nil, nil)
        // A full handshake when the certificate is due, so the check sees it as served now (the other
        // requests of the check may ride on that connection and borrow it below); otherwise a kept
        // connection or a resumed session, which report the certificate of their own full handshake.
        var wellKnown = if let opened { opened } else {
            await transfer(.wellKnown, url: Self.wellKnownURL(host), host: host.ascii, target: target,
                           userAgent: configuration.appleUserAgent, ifNoneMatch: plan.ifNoneMatch)
        }
        if plan.appleRoute == .direct {
            wellKnown = await followingRedirects(from: wellKnown, userAgent: configuration.appleUserAgent)
        }
        var (root, plain) = await comparedNow
        let compared = compareNow || plan.comparesAfter(wellKnown)
        if !compareNow, compared {
            (root, plain) = await comparisons(host, target: target)
        }
        // The browser's repeat takes the same route, so the comparison sees the same file.
        if plan.appleRoute == .direct, let repeated = plain {
            plain = await followingRedirects(from: repeated, userAgent: configuration.plainUserAgent)
        }
        // Whatever the plan: when `.well-known` serves nothing, the root location decides where a device reads.
        if root == nil, !plan.notModified(wellKnown), !CheckEvaluation.serves(wellKnown) {
            root = await transfer(.root, url: Self.rootURL(host), host: host.ascii, target: target, userAgent: configuration.appleUserAgent)
        }
        return AppleOrigin(wellKnown: wellKnown, root: root.map { Self.sharingCertificate($0, of: wellKnown) }, plain: plain,
                           compared: compared)
    }

    /// The comparisons of Apple's file: the root location (when the configuration always asks it) and
    /// `.well-known` with a browser's user agent (when the comparison is on), at once.
    private func comparisons(_ host: HostName, target: PinnedTarget) async -> (root: TransportFacts?, plain: TransportFacts?) {
        async let root: TransportFacts? = configuration.rootLocation == .always
            ? transfer(.root, url: Self.rootURL(host), host: host.ascii, target: target, userAgent: configuration.appleUserAgent)
            : nil
        async let plain: TransportFacts? = configuration.compareUserAgents
            ? transfer(.wellKnown, url: Self.wellKnownURL(host), host: host.ascii, target: target,
                       userAgent: configuration.plainUserAgent, certificate: false)
            : nil
        return (await root, await plain)
    }

    /// A request that rode on the `.well-known` request's connection (HTTP/2, keep-alive) gets no
    /// certificate from curl; it is the same certificate, so say so.
    private static func sharingCertificate(_ facts: TransportFacts, of wellKnown: TransportFacts) -> TransportFacts {
        guard facts.tls == nil, facts.status != nil, let tls = wellKnown.tls else { return facts }
        var shared = facts
        shared.tls = tls
        return shared
    }

    /// The check's report from what was fetched: the findings of the requests not made this time are
    /// carried from the plan (the last check's).
    private func appleCheck(_ host: HostName, startedAt: Date, origin: AppleOrigin, cdn: TransportFacts?, plan: PlatformPlan) -> AppleCheck {
        let carried = plan.carried.filter { finding in
            (!origin.compared && CheckEvaluation.comparisonCodes.contains(finding.code))
                || (cdn == nil && configuration.checkCDN && CheckEvaluation.cdnCodes.contains(finding.code))
        }
        let report = CheckEvaluation.evaluate(wellKnown: origin.wellKnown, root: origin.root, cdn: cdn, plainUserAgent: origin.plain,
                                              carried: carried)
        return AppleCheck(host: host, startedAt: startedAt, finishedAt: Date(), wellKnown: origin.wellKnown, root: origin.root,
                          cdn: cdn, plainUserAgent: origin.plain, report: report,
                          asked: SecondaryAsked(copy: cdn != nil, comparisons: origin.compared,
                                                certificate: plan.certificateDue && origin.wellKnown.tls != nil,
                                                fullFetch: plan.ifNoneMatch == nil),
                          notModified: plan.notModified(origin.wellKnown))
    }

    /// The `.well-known` fetch on a new connection with a full handshake, so the check sees the certificate
    /// as served now (the check's other requests ride on that connection and borrow it).
    func openingFetch(_ host: HostName, target: PinnedTarget, plan: PlatformPlan) async -> TransportFacts {
        await transfer(.wellKnown, url: Self.wellKnownURL(host), host: host.ascii,
                              target: target, userAgent: configuration.appleUserAgent, freshConnection: true,
                              ifNoneMatch: plan.ifNoneMatch)
    }

    /// Checks many hosts, at most `maxInFlight` at a time, handing each result to `each` as it
    /// completes (in completion order). The transfer loop's connection caps still apply.
    public func check(_ hosts: some Sequence<HostName>, maxInFlight: Int = 512,
                      _ each: @escaping @Sendable (AppleCheck) async -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            var inFlight = 0
            for host in hosts {
                if inFlight >= max(1, maxInFlight) {
                    await group.next()
                    inFlight -= 1
                }
                group.addTask { await each(await self.check(host)) }
                inFlight += 1
            }
        }
    }

    /// Fetches one location of `host` as Apple's fetcher would (policy, pinning, no redirects).
    public func fetch(_ location: TransportFacts.Location, of host: HostName, userAgent: String? = nil) async -> TransportFacts {
        if location == .cdn { return await fetchCDN(for: host) }
        let path = location == .wellKnown ? "/.well-known/apple-app-site-association" : "/apple-app-site-association"
        let url = "https://\(host.ascii)\(path)"
        switch await pin(host.ascii) {
        case .failure(let failure, _):
            return TransportFacts(location: location, url: url, failure: failure)
        case .success(let target):
            return await transfer(location, url: url, host: host.ascii, target: target,
                                  userAgent: userAgent ?? configuration.appleUserAgent)
        }
    }

    /// The device's direct route: follows `first`'s https redirects as the device does (`DirectRoute`),
    /// each target's host resolved, judged by the outbound policy and pinned like the first host (a
    /// redirect to a private address is refused as one), up to `DirectRoute.maxRedirects`. The answer
    /// is the last hop's, with the redirects taken in `followedRedirects`.
    func followingRedirects(from first: TransportFacts, userAgent: String) async -> TransportFacts {
        var facts = first
        var hops: [FollowedRedirect] = []
        while let next = DirectRoute.nextURL(after: facts), let status = facts.status {
            hops.append(FollowedRedirect(url: facts.url, status: status, location: next))
            let target: OutboundURL
            do {
                target = try OutboundURL(next)
            } catch {
                facts = TransportFacts(location: first.location, url: next, failure: FetchFailure(kind: .other, message: error.description))
                facts.followedRedirects = hops
                break
            }
            switch await pin(target.host, port: target.port) {
            case .failure(let failure, _):
                facts = TransportFacts(location: first.location, url: target.url, failure: failure)
            case .success(let pinned):
                facts = await transfer(first.location, url: target.url, host: target.host, port: target.port, target: pinned,
                                       userAgent: userAgent, freshConnection: true)
            }
            facts.followedRedirects = hops
        }
        return facts
    }

    private func fetchCDN(for host: HostName) async -> TransportFacts {
        let url = cdn.url(for: host)
        switch await pin(cdn.host) {
        case .failure(let failure, _):
            return TransportFacts(location: .cdn, url: url, failure: failure)
        case .success(let target):
            return await transfer(.cdn, url: url, host: cdn.host, target: target, userAgent: configuration.plainUserAgent)
        }
    }

    // MARK: - Resolve, judge, pin

    enum Pin: Sendable {
        case success(PinnedTarget)
        case failure(FetchFailure, dns: Double)
    }

    struct PinnedTarget: Sendable {
        var connectTarget: (host: String, port: Int)?
        var addresses: [IPAddress]
        var dnsSeconds: Double
    }

    /// Resolves where a connection to `host`:443 would go and judges every address; a refusal
    /// names the address and the range.
    func pin(_ host: String, port: Int = 443) async -> Pin {
        let rule = configuration.connectTo.first { $0.matches(host: host, port: port) }
        let targetHost = rule?.connectHost ?? host
        let targetPort = rule?.connectPort ?? port
        let connectTarget: (host: String, port: Int)? = rule == nil ? nil : (targetHost, targetPort)

        let addresses: [IPAddress]
        let seconds: Double
        if let literal = IPAddress(targetHost) {
            addresses = [literal]
            seconds = 0
        } else {
            let (result, elapsed) = await resolvers.resolve(targetHost)
            seconds = elapsed
            switch result {
            case .failure(let error):
                return .failure(FetchFailure(kind: .dns, message: error.message), dns: seconds)
            case .success(let list):
                addresses = list
            }
        }
        if let (address, range) = configuration.policy.refusal(among: addresses) {
            let via = targetHost == host ? "" : " (via connect-to \(targetHost))"
            return .failure(FetchFailure(
                kind: .addressRefused,
                message: "\(host)\(via) resolves to \(address), which is \(range); the monitor does not fetch from private or special-purpose addresses (test setups opt in with --allow-private-addresses)."),
                dns: seconds)
        }
        return .success(PinnedTarget(connectTarget: connectTarget, addresses: addresses, dnsSeconds: seconds))
    }

    func transfer(_ location: TransportFacts.Location, url: String, host: String, port: Int = 443, target: PinnedTarget,
                  userAgent: String, certificate: Bool = true, freshConnection: Bool = false,
                  ifNoneMatch: String? = nil, timeout: Duration? = nil) async -> TransportFacts {
        var request = TransferRequest(location: location, url: url, host: host, port: port, userAgent: userAgent,
                                      connectTarget: target.connectTarget, pinnedAddresses: target.addresses,
                                      dnsSeconds: target.dnsSeconds, wantCertificate: certificate)
        request.freshConnection = freshConnection
        request.ifNoneMatch = ifNoneMatch
        request.totalTimeoutMilliseconds = timeout.map { Int($0.milliseconds) }
        var facts = await run(request)
        // Kept with the facts, so a stored 304 says it answered our conditional request (the page shows
        // it as "unchanged", not as the origin's status).
        facts.ifNoneMatch = ifNoneMatch
        // A failed verification tells us why but not what the certificate says; a second look with
        // verification off records subject, names, issuer and expiry. Its answer is never used.
        if certificate, let failure = facts.failure, failure.kind.isTLS {
            request.verifyPeer = false
            let probe = await run(request)
            if let seen = probe.tls {
                facts.tls = TLSFacts(trusted: false, failureReason: failure.message, subject: seen.subject,
                                     subjectAltNames: seen.subjectAltNames, issuer: seen.issuer, notAfter: seen.notAfter)
            }
        }
        return facts
    }

    private func run(_ request: TransferRequest) async -> TransportFacts {
        await withCheckedContinuation { continuation in
            loop.submit(request) { continuation.resume(returning: $0) }
        }
    }
}

extension Duration {
    var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}

extension TransportFacts {
    /// The well-known location of a host whose name did not resolve or was refused by the outbound
    /// policy: nothing was fetched, only the name lookup took time. Apple's and Android's checks alike.
    static func unresolved(url: String, failure: FetchFailure, dns: Double, userAgent: String) -> TransportFacts {
        var facts = TransportFacts(location: .wellKnown, url: url, failure: failure)
        facts.timings = TransportTimings(dns: dns, connect: 0, tls: 0, firstByte: 0, total: dns)
        facts.userAgent = userAgent
        return facts
    }
}
