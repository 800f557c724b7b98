import Vocabulary

/// Turns the facts of one check (both origin locations, Apple's CDN, the plain-user-agent repeat)
/// into a `CheckReport`. Pure: no I/O, no clock; never throws.
public enum CheckEvaluation {
    /// - Parameters:
    ///   - wellKnown: `https://HOST/.well-known/apple-app-site-association`, fetched as Apple's CDN fetcher.
    ///   - root: `https://HOST/apple-app-site-association`, when it was fetched.
    ///   - cdn: `https://app-site-association.cdn-apple.com/a/v1/HOST`, when it was fetched.
    ///   - plainUserAgent: the `.well-known` fetch repeated with a browser's User-Agent.
    ///   - carried: findings of requests this check did not make (the CDN, the comparisons), kept from the
    ///     last check because `.well-known` answered as it did then (`comparisonCodes`, `cdnCodes`).
    public static func evaluate(wellKnown: TransportFacts, root: TransportFacts?, cdn: TransportFacts?,
                                plainUserAgent: TransportFacts? = nil, carried: [Finding] = []) -> CheckReport {
        var findings: [Finding] = []
        let wellKnownWorks = serves(wellKnown)
        let rootWorks = root.map(serves) ?? false
        let device: TransportFacts? = wellKnownWorks ? wellKnown : (rootWorks ? root : nil)

        if let device {
            findings += TransportValidator.findings(for: device)
        } else {
            // Neither location serves a file: what went wrong at `.well-known` is what to fix.
            findings += TransportValidator.findings(for: wellKnown)
        }

        var origin: DocumentSnapshot?
        if let device {
            let snapshot = DocumentSnapshot(facts: device)
            origin = snapshot
            findings += snapshot.findings
        }

        if device?.location == .root, let root {
            findings.append(FindingDefinition.rootPathDeprecated.finding(at: nil,
                "The file is served only at \(root.url); \(wellKnown.url) answered \(outcome(wellKnown)). Apple deprecated the root location in 2019, and the alternate (developer/managed) modes need .well-known.",
                hint: "Serve the same file at /.well-known/apple-app-site-association."))
        }

        if wellKnownWorks, rootWorks, let root, let origin {
            if !origin.behavesLike(root) {
                findings.append(FindingDefinition.locationsDisagree.finding(at: nil,
                    "\(wellKnown.url) and \(root.url) serve files that behave differently; devices use .well-known, but tools and older systems may read the root file.",
                    hint: "Serve one file at both places, or remove the root copy."))
            }
        }

        if let cdn {
            findings += cdnFindings(cdn, origin: origin)
        }

        if let plainUserAgent {
            findings += userAgentFindings(apple: wellKnown, plain: plainUserAgent)
        }
        findings += carried

        findings = deduplicated(findings).sorted { $0.severity.rank < $1.severity.rank }
        let couldNotCheck = device == nil && wellKnown.status == nil && (root?.status == nil)
            && (wellKnown.failure.map { unreachableKinds.contains($0.kind) } ?? false)
        return CheckReport(deviceLocation: device?.location, document: origin?.document, findings: findings,
                           verdict: Verdict(findings: findings), couldNotCheck: couldNotCheck)
    }

    /// The codes only the comparisons (root location beside a working `.well-known`, a browser's user
    /// agent) can find: carried from the last check when they are not made.
    public static let comparisonCodes: Set<String> = [FindingDefinition.locationsDisagree.code, FindingDefinition.userAgentDiffers.code]
    /// The codes only Apple's CDN answer can find.
    public static let cdnCodes: Set<String> = [FindingDefinition.cdnFailure.code, FindingDefinition.cdnStale.code]

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
            message += ". Devices on iOS 14+/macOS 11+ get the file only through the CDN."
            return [FindingDefinition.cdnFailure.finding(at: nil, message,
                hint: "Fix what the reason names at the origin; the CDN re-fetches within about a day.")]
        }
        guard let origin else {
            return [FindingDefinition.cdnStale.finding(at: nil,
                "Apple's CDN still serves a file although the origin serves none; devices keep the CDN's copy until it re-fetches (within about a day).")]
        }
        if !origin.behavesLike(cdn) {
            var message = "Apple's CDN serves a file that behaves differently from the origin's"
            // `Age` is in seconds (RFC 9111); an unreadable one is left out rather than quoted.
            if let age = cdn.header("age").flatMap({ Int($0.filter { $0 != " " }) }) {
                message += " (the CDN copy is \(ElapsedTime.describe(seconds: age)) old)"
            }
            message += "."
            return [FindingDefinition.cdnStale.finding(at: nil, message,
                hint: "Normal for up to about a day after a change; if it persists, check that Apple's CDN can reach the origin.")]
        }
        return []
    }

    private static func userAgentFindings(apple: TransportFacts, plain: TransportFacts) -> [Finding] {
        let appleWorks = serves(apple), plainWorks = serves(plain)
        let appleUA = apple.userAgent ?? "Apple's user agent", plainUA = "a browser's user agent"
        if appleWorks != plainWorks || (!appleWorks && apple.status != plain.status) {
            let severity: Severity = (!appleWorks && plainWorks) ? .error : .warning
            return [FindingDefinition.userAgentDiffers.finding(at: nil,
                "\(apple.url) answers \(outcome(apple)) to \(appleUA) but \(outcome(plain)) to \(plainUA); a firewall or bot filter treats Apple's fetcher differently.",
                hint: "Let every user agent read the file (TN3155), in particular AASA-Bot, Apple's CDN fetcher.", severity: severity)]
        }
        if appleWorks, plainWorks, apple.body != plain.body, !DocumentSnapshot(facts: apple).behavesLike(plain) {
            return [FindingDefinition.userAgentDiffers.finding(at: nil,
                "\(apple.url) serves a different file to \(appleUA) than to \(plainUA).",
                hint: "Make sure Apple's fetcher gets the file you test with.")]
        }
        return []
    }

    /// One finding per code: the same problem seen by two rules (or at two locations) is reported once.
    private static func deduplicated(_ findings: [Finding]) -> [Finding] {
        var seen = Set<String>()
        return findings.filter { seen.insert($0.code).inserted }
    }
}
