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
        // Neither location serves, `.well-known` redirects, and Apple's CDN serves a copy it fetched
        // through that redirect: devices read the CDN's copy, so the redirect works for now.
        let followed = device == nil ? CDNFollowedRedirect(wellKnown: wellKnown, cdn: cdn) : nil

        if let device {
            findings += TransportValidator.findings(for: device)
        } else if let followed {
            findings += TransportValidator.findings(for: wellKnown).filter { $0.code != FindingDefinition.redirectNotAllowed.code }
            findings.append(followed.finding)
        } else {
            // Neither location serves a file: what went wrong at `.well-known` is what to fix.
            findings += TransportValidator.findings(for: wellKnown)
        }

        var origin: DocumentSnapshot?
        if let copy = device ?? followed?.copy {
            let snapshot = DocumentSnapshot(facts: copy)
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

        // The CDN's copy is the file here when it followed the redirect: nothing to compare it with.
        var copyDocument: AASADocument?? = nil
        if let cdn, followed == nil {
            let copy = cdnFindings(cdn, origin: origin)
            findings += copy.findings
            copyDocument = copy.document
        }

        if let plainUserAgent {
            findings += userAgentFindings(apple: wellKnown, plain: plainUserAgent)
        }
        findings += carried

        findings = deduplicated(findings).sorted { $0.severity.rank < $1.severity.rank }
        let couldNotCheck = device == nil && wellKnown.status == nil && (root?.status == nil)
            && (wellKnown.failure.map { unreachableKinds.contains($0.kind) } ?? false)
        var report = CheckReport(deviceLocation: device?.location ?? followed.map { _ in .cdn }, document: origin?.document,
                                 findings: findings, verdict: Verdict(findings: findings), couldNotCheck: couldNotCheck)
        report.copyDocument = copyDocument
        return report
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

    /// The CDN's findings, and its copy as read to compare it (`CheckReport.copyDocument`).
    private static func cdnFindings(_ cdn: TransportFacts, origin: DocumentSnapshot?) -> (findings: [Finding], document: AASADocument??) {
        let reason = cdn.header("apple-failure-reason")
        if !serves(cdn) || reason != nil {
            var message = "Apple's CDN (\(cdn.url)) answered \(outcome(cdn))"
            if let reason { message += " with Apple-Failure-Reason: \(reason)" }
            if let details = cdn.header("apple-failure-details") { message += " (details: \(details))" }
            message += ". Devices on iOS 14+/macOS 11+ get the file only through the CDN."
            return ([FindingDefinition.cdnFailure.finding(at: nil, message,
                hint: "Fix what the reason names at the origin; the CDN re-fetches within about a day.")], nil)
        }
        guard let origin else {
            return ([FindingDefinition.cdnStale.finding(at: nil,
                "Apple's CDN still serves a file although the origin serves none; devices keep the CDN's copy until it re-fetches (within about a day).")], nil)
        }
        // Read once: the comparison and the stored version's reading take the same parse.
        let copy = origin.sameBytes(cdn) ? origin : DocumentSnapshot(facts: cdn)
        if !origin.sameBytes(cdn), !origin.behavesLike(copy) {
            var message = "Apple's CDN serves a file that behaves differently from the origin's"
            // `Age` is in seconds (RFC 9111); an unreadable one is left out rather than quoted.
            if let age = cdn.header("age").flatMap({ Int($0.filter { $0 != " " }) }) {
                message += " (the CDN copy is \(ElapsedTime.describe(seconds: age)) old)"
            }
            message += "."
            return ([FindingDefinition.cdnStale.finding(at: nil, message,
                hint: "Normal for up to about a day after a change; if it persists, check that Apple's CDN can reach the origin.")],
                    .some(copy.document))
        }
        return ([], .some(copy.document))
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

    /// Apple's CDN serving a file it fetched through the origin's redirect: `.well-known` answers a
    /// 3xx, the CDN answers 200 without a failure reason, and its `Apple-From` lists the `.well-known`
    /// URL and at least one more (the CDN has been seen to follow a same-site redirect, apex → www,
    /// and name both URLs, comma-separated). Only the CDN's answer proves it: it is not assumed.
    struct CDNFollowedRedirect {
        /// The CDN's answer, which is the file devices read.
        let copy: TransportFacts
        /// The URLs `Apple-From` lists, in its order.
        let from: [String]
        /// The `.well-known` URL, and the 3xx it answered.
        let origin: String
        let status: Int

        init?(wellKnown: TransportFacts, cdn: TransportFacts?) {
            guard wellKnown.failure == nil, let status = wellKnown.status, (300...399).contains(status),
                  let cdn, CheckEvaluation.serves(cdn), cdn.header("apple-failure-reason") == nil,
                  let header = cdn.header("apple-from") else { return nil }
            let from = Self.urls(header)
            guard from.count >= 2, from.contains(where: { $0.lowercased() == wellKnown.url.lowercased() }) else { return nil }
            self.copy = cdn
            self.from = from
            self.origin = wellKnown.url
            self.status = status
        }

        /// `Apple-From`'s URLs: comma-separated, spaces around them dropped.
        static func urls(_ header: String) -> [String] {
            // A URL holds no space or tab, so dropping them trims each one.
            header.split(separator: ",").map { $0.filter { $0 != " " && $0 != "\t" } }.filter { !$0.isEmpty }
        }

        var finding: Finding {
            FindingDefinition.redirectFollowed.finding(at: nil,
                "\(origin) answers \(status). Apple documents redirects as unsupported; Apple's CDN currently follows this one — Apple-From lists both URLs (\(from.joined(separator: ", "))) — so devices get the file, for as long as the CDN keeps doing so.",
                hint: "Serve the file directly at \(origin) with status 200 (exclude it from apex→www and http→https redirects).")
        }
    }

    /// One finding per code: the same problem seen by two rules (or at two locations) is reported once.
    private static func deduplicated(_ findings: [Finding]) -> [Finding] {
        var seen = Set<String>()
        return findings.filter { seen.insert($0.code).inserted }
    }
}
