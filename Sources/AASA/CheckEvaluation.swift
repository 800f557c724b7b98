/// Turns the facts of one check (both origin locations, Apple's CDN, the plain-user-agent repeat)
/// into a `CheckReport`. Pure: no I/O, no clock; never throws.
public enum CheckEvaluation {
    /// - Parameters:
    ///   - wellKnown: `https://HOST/.well-known/apple-app-site-association`, fetched as Apple's CDN fetcher.
    ///   - root: `https://HOST/apple-app-site-association`, when it was fetched.
    ///   - cdn: `https://app-site-association.cdn-apple.com/a/v1/HOST`, when it was fetched.
    ///   - plainUserAgent: the `.well-known` fetch repeated with a browser's User-Agent.
    public static func evaluate(wellKnown: TransportFacts, root: TransportFacts?, cdn: TransportFacts?,
                                plainUserAgent: TransportFacts? = nil) -> CheckReport {
        var findings: [Finding] = []
        let wellKnownWorks = serves(wellKnown)
        let rootWorks = root.map(serves) ?? false
        let device: TransportFacts? = wellKnownWorks ? wellKnown : (rootWorks ? root : nil)

        if let device {
            findings += transportFindings(device)
        } else {
            // Neither location serves a file: what went wrong at `.well-known` is what to fix.
            findings += transportFindings(wellKnown)
        }

        var origin: DocumentSnapshot?
        if let device {
            let snapshot = DocumentSnapshot(facts: device)
            origin = snapshot
            findings += snapshot.findings
        }

        if device?.location == .root, let root {
            findings.append(Finding(
                code: "root-path-deprecated", severity: .deprecation,
                message: "The file is served only at \(root.url); \(wellKnown.url) answered \(outcome(wellKnown)). Apple deprecated the root location in 2019 and the alternate (developer/managed) modes need .well-known; move the file there.",
                affects: "iOS 13+, macOS 10.15+"))
        }

        if wellKnownWorks, rootWorks, let root, let origin {
            let other = DocumentSnapshot(facts: root)
            if !origin.behavesLike(other) {
                findings.append(Finding(
                    code: "locations-disagree", severity: .warning,
                    message: "\(wellKnown.url) and \(root.url) serve files that behave differently; devices use .well-known, but tools and older systems may read the root file. Serve one file at both places, or remove the root copy."))
            }
        }

        if let cdn {
            findings += cdnFindings(cdn, origin: origin)
        }

        if let plainUserAgent {
            findings += userAgentFindings(apple: wellKnown, plain: plainUserAgent)
        }

        findings = deduplicated(findings).sorted { $0.severity.rank < $1.severity.rank }
        let couldNotCheck = device == nil && wellKnown.status == nil && (root?.status == nil)
            && (wellKnown.failure.map { unreachableKinds.contains($0.kind) } ?? false)
        return CheckReport(deviceLocation: device?.location, document: origin?.document, findings: findings,
                           verdict: CheckReport.verdict(for: findings), couldNotCheck: couldNotCheck)
    }

    /// Failures that say nothing certain about the site: our network or policy may be the cause.
    private static let unreachableKinds: Set<FetchFailure.Kind> = [.dns, .refused, .timeout, .reset, .addressRefused, .other]

    /// A location "serves" the file when it answered 200 with a complete body over trusted TLS.
    public static func serves(_ facts: TransportFacts) -> Bool {
        facts.failure == nil && facts.status == 200 && facts.tls?.trusted != false
    }

    static func outcome(_ facts: TransportFacts) -> String {
        if let failure = facts.failure { return "with an error (\(failure.kind.rawValue): \(failure.message))" }
        if let status = facts.status { return "HTTP \(status)" }
        return "nothing"
    }

    private static func cdnFindings(_ cdn: TransportFacts, origin: DocumentSnapshot?) -> [Finding] {
        let reason = cdn.header("apple-failure-reason")
        if !serves(cdn) || reason != nil {
            var message = "Apple's CDN (\(cdn.url)) answered \(outcome(cdn))"
            if let reason { message += " with Apple-Failure-Reason: \(reason)" }
            if let details = cdn.header("apple-failure-details") { message += " (details: \(details))" }
            message += ". Devices on iOS 14+/macOS 11+ get the file only from the CDN; fix what the reason names, then wait for the CDN to re-fetch (within about a day)."
            return [Finding(code: "cdn-failure", severity: .error, message: message, affects: "iOS 14+, macOS 11+")]
        }
        let copy = DocumentSnapshot(facts: cdn)
        guard let origin else {
            return [Finding(code: "cdn-stale", severity: .warning,
                            message: "Apple's CDN still serves a file although the origin serves none; devices keep the CDN's copy until it re-fetches (within about a day).",
                            affects: "iOS 14+, macOS 11+")]
        }
        if !origin.behavesLike(copy) {
            var message = "Apple's CDN serves a file that behaves differently from the origin's"
            if let age = cdn.header("age") { message += " (the CDN copy is \(age) s old)" }
            message += ". Normal for up to about a day after a change; if it persists, check that the CDN can reach the origin."
            return [Finding(code: "cdn-stale", severity: .warning, message: message, affects: "iOS 14+, macOS 11+")]
        }
        return []
    }

    private static func userAgentFindings(apple: TransportFacts, plain: TransportFacts) -> [Finding] {
        let appleWorks = serves(apple), plainWorks = serves(plain)
        let appleUA = apple.userAgent ?? "Apple's user agent", plainUA = "a browser's user agent"
        if appleWorks != plainWorks || (!appleWorks && apple.status != plain.status) {
            let severity: Severity = (!appleWorks && plainWorks) ? .error : .warning
            return [Finding(
                code: "user-agent-differs", severity: severity,
                message: "\(apple.url) answers \(outcome(apple)) to \(appleUA) but \(outcome(plain)) to \(plainUA); a firewall or bot filter treats Apple's fetcher differently. TN3155 asks that the file be reachable for every user agent.")]
        }
        if appleWorks, plainWorks, !DocumentSnapshot(facts: apple).behavesLike(DocumentSnapshot(facts: plain)) {
            return [Finding(
                code: "user-agent-differs", severity: .warning,
                message: "\(apple.url) serves a different file to \(appleUA) than to \(plainUA); make sure Apple's fetcher gets the file you test with.")]
        }
        return []
    }

    /// One finding per code: the same problem seen by two rules (or at two locations) is reported once.
    private static func deduplicated(_ findings: [Finding]) -> [Finding] {
        var seen = Set<String>()
        return findings.filter { seen.insert($0.code).inserted }
    }
}
