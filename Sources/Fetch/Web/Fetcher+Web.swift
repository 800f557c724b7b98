import Foundation
import Outbound
import Vocabulary
import WebAuthn

extension Fetcher {
    /// The browser's limits on the related-origins fetch (passkeys-spec.md §2, CR-RV): 10 s, and at most
    /// 20 redirects, every hop https. The 256 KiB cap is the reader's (`RelatedOriginsReader.sizeLimit`).
    public static let webauthnTimeout: Duration = .seconds(10)
    public static let webauthnMaxRedirects = 20

    /// One live check of an RP ID's web files: `/.well-known/webauthn` as a browser fetches it (browser
    /// user agent, no cookies or credentials, https redirects followed, 10 s), and `passkey-endpoints`,
    /// `change-password` and a path that cannot exist as the spec's clients ask them (never followed).
    /// The outbound policy and pinning apply to every request and every redirect's host. Never throws:
    /// a site's problems come back as findings.
    public func checkPasskeys(_ rpID: RelyingPartyID, rules: DomainRules) async -> WebAuthnCheck {
        let started = Date()
        let agent = configuration.plainUserAgent
        let webauthnURL = WebAuthnCheck.url(rpID, path: "/.well-known/webauthn")
        var webauthn: TransportFacts
        var endpoints: TransportFacts?, changePassword: TransportFacts?, probe: TransportFacts?
        switch await pin(rpID.domain) {
        case .failure(let failure, let dns):
            webauthn = .unresolved(url: webauthnURL, failure: failure, dns: dns, userAgent: agent)
        case .success(let target):
            func get(_ path: String) async -> TransportFacts {
                await transfer(.wellKnown, url: WebAuthnCheck.url(rpID, path: path), host: rpID.domain, target: target,
                               userAgent: agent, certificate: false)
            }
            // The file first, with the certificate: the optional files ride on its connection. The
            // browser's 10 s cover the whole fetch, redirects included.
            let deadline = ContinuousClock.now + Self.webauthnTimeout
            let first = await transfer(.wellKnown, url: webauthnURL, host: rpID.domain, target: target, userAgent: agent,
                                       timeout: Self.webauthnTimeout)
            async let followed = followingBrowserRedirects(from: first, userAgent: agent, deadline: deadline)
            async let endpointsNow = get("/.well-known/passkey-endpoints")
            async let changeNow = get("/.well-known/change-password")
            async let probeNow = get(OptionalFilesTransport.reliabilityProbePath)
            webauthn = await followed
            (endpoints, changePassword, probe) = (await endpointsNow, await changeNow, await probeNow)
        }
        let evaluation = WebAuthnEvaluation.evaluate(rpID: rpID, webauthn: webauthn, passkeyEndpoints: endpoints,
                                                     changePassword: changePassword, probe: probe, rules: rules)
        return WebAuthnCheck(rpID: rpID, startedAt: started, finishedAt: Date(), webauthn: webauthn, passkeyEndpoints: endpoints,
                             changePassword: changePassword, probe: probe, evaluation: evaluation)
    }

    /// Follows `first`'s redirects as a browser fetches the related-origins file: each https target's
    /// host resolved, judged by the outbound policy and pinned (a redirect to a private address is
    /// refused as one), up to `webauthnMaxRedirects`, within what is left of the 10 s at `deadline`. A hop to anything but https is recorded in
    /// `followedRedirects` and not fetched: the answer stays that redirect, and the core reports the hop.
    func followingBrowserRedirects(from first: TransportFacts, userAgent: String, deadline: ContinuousClock.Instant) async -> TransportFacts {
        var facts = first
        var hops: [FollowedRedirect] = []
        while facts.failure == nil, let status = facts.status, Self.redirectStatuses.contains(status),
              let next = facts.redirectTarget ?? facts.header("location"), hops.count < Self.webauthnMaxRedirects {
            hops.append(FollowedRedirect(url: facts.url, status: status, location: next))
            guard next.lowercased().hasPrefix("https://") else {
                facts.followedRedirects = hops
                return facts
            }
            let target: OutboundURL
            do {
                target = try OutboundURL(next)
            } catch {
                facts = TransportFacts(location: first.location, url: next, failure: FetchFailure(kind: .other, message: error.description))
                facts.followedRedirects = hops
                return facts
            }
            // curl reads a zero timeout as none: a spent budget ends the fetch here.
            let left = deadline - ContinuousClock.now
            guard left >= .milliseconds(1) else {
                facts = TransportFacts(location: first.location, url: target.url,
                                       failure: FetchFailure(kind: .timeout, message: "the redirects took the browser's whole \(Self.webauthnTimeout)"))
                facts.followedRedirects = hops
                return facts
            }
            switch await pin(target.host, port: target.port) {
            case .failure(let failure, _):
                facts = TransportFacts(location: first.location, url: target.url, failure: failure)
            case .success(let pinned):
                facts = await transfer(first.location, url: target.url, host: target.host, port: target.port, target: pinned,
                                       userAgent: userAgent, certificate: false, timeout: left)
            }
            facts.followedRedirects = hops
        }
        return facts
    }

    /// The statuses a browser's fetch follows (300 and 304 carry no redirect).
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]
}
