import Vocabulary

/// Everything one Android check saw: the pure input of `AndroidCheckEvaluation`.
public struct AndroidCheckFacts: Sendable {
    /// `https://HOST/.well-known/assetlinks.json` fetched as Google's fetcher (`GoogleAssociationService`).
    public var origin: TransportFacts
    /// The same URL with other user agents (a browser's, Android's HttpURLConnection's).
    public var otherUserAgents: [TransportFacts]
    /// The include tree as resolved with real fetches; nil when the file has no includes or was not read.
    public var includes: IncludeResolver.Resolution?
    /// Google's Digital Asset Links API; nil when it was not asked.
    public var google: GoogleAnswer?
    public var expectations: [AndroidAppExpectation]
    /// The registration was `*.HOST`: the file lives on the bare domain (assetlinks-spec.md §2.1).
    public var wildcard: Bool
    /// The domain is watched for Android only: its owner says the host publishes assetlinks.json, so a
    /// 404 is a failure even when no app is expected of it (a domain watched for both platforms that
    /// serves none has simply no Android app).
    public var fileRequired = false
    /// How long ago the origin's file last changed, when the history knows it: Google may lag by its
    /// `maxAge` plus an hour before its difference is a warning.
    public var originChangedSecondsAgo: Double?
    /// The same file asked at the host's fully-qualified form (`https://HOST./…`); nil when not asked.
    public var trailingDot: TransportFacts?
    /// `https://HOST/robots.txt` as Google's fetcher reads it; nil when not asked.
    public var robots: TransportFacts?
    /// Findings of requests this check did not make (Google's API, the other user agents), kept from the
    /// last check because Google's fetcher got the same answer as then (`comparisonCodes`, `googleCodes`).
    public var carried: [Finding] = []
    /// Google's API was not asked this time; its last answer stands (carried in `carried`).
    public var googleCarried = false
    /// The origin's file as `AssetLinksValidator` judged it, when the caller read it already (the fetcher
    /// does, to walk its includes): the evaluation takes it instead of reading the same bytes again.
    /// nil: the evaluation reads the origin's body itself when it serves one.
    public var document: AssetLinksReport?

    public init(origin: TransportFacts, otherUserAgents: [TransportFacts] = [], includes: IncludeResolver.Resolution? = nil,
                google: GoogleAnswer? = nil, expectations: [AndroidAppExpectation] = [], wildcard: Bool = false,
                originChangedSecondsAgo: Double? = nil, trailingDot: TransportFacts? = nil, robots: TransportFacts? = nil) {
        self.trailingDot = trailingDot
        self.robots = robots
        self.origin = origin
        self.otherUserAgents = otherUserAgents
        self.includes = includes
        self.google = google
        self.expectations = expectations
        self.wildcard = wildcard
        self.originChangedSecondsAgo = originChangedSecondsAgo
    }
}

extension AndroidCheckFacts {
    /// A missing file is a failure: an app is expected of the host, the registration is a wildcard
    /// (the bare domain must serve it), or the domain is watched for Android only.
    var expectsFile: Bool { !expectations.isEmpty || wildcard || fileRequired }
}

/// What an Android check means.
public struct AndroidCheckReport: Sendable {
    /// The origin's file as served, judged on its own (nil when nothing was served with 200).
    public var document: AssetLinksReport?
    /// The statements Google honours: the file's plus those of its readable includes.
    public var file: AssetLinksFile?
    /// Transport, document, include, expectation and Google findings, most severe first, one per code
    /// except where a code names different subjects (each expected package, each error code).
    public var findings: [Finding]
    public var verdict: Verdict
    /// True when nothing certain could be learnt about the site (our network or policy may be the cause).
    public var couldNotCheck: Bool
    /// The origin serves a statement list (200, trusted TLS, readable).
    public var serves: Bool
    /// How Google's copy differs from the origin's in behaviour; nil when Google was not asked or not compared.
    public var googleDiff: AssetLinksDiff?
}

/// Turns the facts of one Android check into findings and a verdict (assetlinks-spec.md §10.1, §10.5).
/// Pure: no I/O, no clock; never throws.
public enum AndroidCheckEvaluation {
    /// Grace beyond Google's `maxAge` before a lagging copy is a warning (spec §10.5: maxAge + 1 h).
    public static let googleGraceSeconds = 3600.0

    public static func evaluate(_ facts: AndroidCheckFacts) -> AndroidCheckReport {
        let origin = facts.origin
        var findings: [Finding] = []
        let served = servesStatusOK(origin)
        findings += transportFindings(origin, expectsFile: facts.expectsFile)

        var document: AssetLinksReport?
        var file: AssetLinksFile?
        if served {
            let report = facts.document ?? AssetLinksValidator.validate(origin.body)
            document = report
            findings += report.findings
            if origin.decodedSize > origin.body.count, origin.decodedSize > AssetLinksReader.sizeLimit,
               !report.findings.contains(where: { $0.code == AndroidFinding.sizeOverLimit.code }) {
                findings.append(AndroidFinding.sizeOverLimit.finding(at: nil,
                    "\(origin.url) is \(origin.decodedSize) bytes after decoding; Android's verifier reads at most \(AssetLinksReader.sizeLimit) bytes (1 MiB).",
                    hint: "Move statements into include files, or remove unused ones."))
            }
            if var own = report.file {
                if let includes = facts.includes {
                    own.statements = includes.statements
                    findings += includes.findings
                }
                file = own
            }
        }
        if facts.wildcard, file == nil {
            findings.append(AndroidCheckFinding.wildcardFileMissing.finding(at: nil,
                "The registration is a wildcard (*.), which Android verifies against the bare domain's file \(origin.url); it serves no statement list.",
                hint: "Publish assetlinks.json on the bare domain as well as on the subdomains."))
        }
        findings += userAgentFindings(origin, others: facts.otherUserAgents)
        if let dotted = facts.trailingDot, let finding = trailingDotFinding(origin, dotted) { findings.append(finding) }
        if served, let robots = facts.robots, let finding = robotsFinding(robots, fileURL: origin.url) { findings.append(finding) }
        findings += expectationFindings(file, facts.expectations, url: origin.url)

        findings += facts.carried
        var googleDiff: AssetLinksDiff?
        var googleLinksEveryApp = false
        if let google = facts.google {
            let (googleFindings, diff) = googleEvaluation(google, origin: file, facts: facts)
            findings += googleFindings
            googleDiff = diff
            if case .answered(_, let checks) = google, !checks.isEmpty, checks.allSatisfy(\.linked) { googleLinksEveryApp = true }
        } else if facts.googleCarried {
            // Its last answer linked every expected app when it named none unlinked and was available.
            googleLinksEveryApp = facts.expectations.contains { !$0.fingerprints.isEmpty }
                && !facts.carried.contains { [AndroidCheckFinding.googleNotLinked.code, AndroidCheckFinding.googleUnavailable.code].contains($0.code) }
        }
        // A wrong Content-Type is only a warning while Google still links every expected app with it.
        if googleLinksEveryApp {
            findings = findings.map { finding in
                guard finding.code == AndroidCheckFinding.contentTypeNotJSON.code else { return finding }
                var softened = finding
                softened.severity = .warning
                return softened
            }
        }

        findings = deduplicated(findings).enumerated().sorted { a, b in
            a.element.severity != b.element.severity ? a.element.severity < b.element.severity : a.offset < b.offset
        }.map(\.element)
        let couldNotCheck = origin.status == nil && (origin.failure.map { unreachableKinds.contains($0.kind) } ?? false)
        return AndroidCheckReport(document: document, file: file, findings: findings, verdict: Verdict(findings: findings),
                                  couldNotCheck: couldNotCheck, serves: file != nil, googleDiff: googleDiff)
    }

    /// The codes only the comparisons can find (other user agents, the host's fully-qualified form,
    /// robots.txt): carried from the last check when they are not made.
    public static let comparisonCodes: Set<String> = [AndroidCheckFinding.fetcherBlocked.code, AndroidCheckFinding.trailingDotMismatch.code,
                                                      AndroidCheckFinding.robotsDisallow.code]
    /// The codes only Google's API can find.
    public static let googleCodes: Set<String> = [AndroidCheckFinding.googleVerdictError.code, AndroidCheckFinding.googleNotLinked.code,
                                                  AndroidCheckFinding.googleStale.code, AndroidCheckFinding.googleUnavailable.code]

    /// Failures that say nothing certain about the site: our network or policy may be the cause.
    private static let unreachableKinds: Set<FetchFailure.Kind> = [.dns, .refused, .timeout, .reset, .addressRefused, .other]

    /// Google counts an answer only with status 200 over trusted TLS (assetlinks-spec.md §2.2).
    public static func servesStatusOK(_ facts: TransportFacts) -> Bool {
        facts.failure == nil && facts.status == 200 && facts.tls?.trusted != false
    }

    // MARK: - Transport (§10.1)

    static func transportFindings(_ facts: TransportFacts, expectsFile: Bool) -> [Finding] {
        let url = facts.url
        if let failure = facts.failure {
            switch failure.kind {
            case .tlsUntrusted, .tlsExpired, .tlsWrongHost:
                return [AndroidCheckFinding.tlsUntrusted.finding(at: nil,
                    "\(url): \(failure.message). Google treats the statement list as empty unless the chain verifies against public roots.",
                    hint: "Renew or replace the certificate and serve the intermediate certificates too.")]
            case .notHTTPS:
                return [AndroidCheckFinding.notHTTPS.finding(at: nil, "\(url): \(failure.message). assetlinks.json is fetched over HTTPS only.",
                    hint: "Serve the file over HTTPS.")]
            case .tooLarge:
                return [AndroidFinding.sizeOverLimit.finding(at: nil,
                    "\(url): \(failure.message). Android's verifier reads at most \(AssetLinksReader.sizeLimit) bytes (1 MiB).",
                    hint: "Move statements into include files, or remove unused ones.")]
            case .dns, .refused, .timeout, .reset, .addressRefused, .other:
                return [AndroidCheckFinding.fetchFailed.finding(at: nil,
                    "\(url) could not be fetched (\(failure.kind.rawValue)): \(failure.message).",
                    hint: "Check that the host resolves in public DNS and answers HTTPS quickly (AOSP's verifier waits 5 s).")]
            }
        }
        var findings: [Finding] = []
        if url.lowercased().hasPrefix("http:") {
            findings.append(AndroidCheckFinding.notHTTPS.finding(at: nil, "\(url) is plain HTTP; assetlinks.json is fetched over HTTPS only.",
                hint: "Serve the file over HTTPS."))
        }
        if let tls = facts.tls, !tls.trusted {
            findings.append(AndroidCheckFinding.tlsUntrusted.finding(at: nil,
                "The certificate of \(url) is not trusted\(tls.failureReason.map { ": \($0)" } ?? "").",
                hint: "Install a certificate from a public CA, with the intermediate certificates, valid for this host name."))
        }
        guard let status = facts.status else { return findings }
        if (300...399).contains(status) {
            let target = facts.redirectTarget ?? facts.header("location")
            findings.append(AndroidCheckFinding.redirectNotAllowed.finding(at: nil,
                "HTTP \(status) redirect at \(url) to \(target ?? "an unnamed location"); Android and Google follow no redirect, so no App Link of this host verifies.",
                hint: "Serve the file at this exact host and path with status 200 (exclude it from http→https, apex↔www and trailing-slash redirects)."))
            return findings
        }
        if status != 200 {
            // A site with no Android app simply has no file: that is not a failure of the site.
            let nothingExpected = !expectsFile && (status == 404 || status == 410)
            findings.append(AndroidCheckFinding.httpStatus.finding(at: nil,
                // The point first, as Apple's (a row cuts its reason short, and the URL alone fills its width).
                nothingExpected
                    ? "HTTP \(status) at \(url): the host publishes no assetlinks.json, and no Android app is expected of it."
                    : "HTTP \(status) at \(url); Google and Android need 200, otherwise the list counts as empty.",
                hint: status == 403 || status == 401
                    ? "Allow every client to read the file (bot protection, WAF rules and geo-blocking often cause this)."
                    : "Publish the file at /.well-known/assetlinks.json with status 200.",
                severity: nothingExpected ? .info : nil))
            return findings
        }
        if let finding = contentTypeFinding(facts) { findings.append(finding) }
        return findings
    }

    /// `application/json`, parameters allowed (assetlinks-spec.md §2.3).
    static func contentTypeFinding(_ facts: TransportFacts) -> Finding? {
        guard let header = facts.header("content-type") else {
            return AndroidCheckFinding.contentTypeNotJSON.finding(at: nil,
                "\(facts.url) is served without a Content-Type header; Google expects application/json (ERROR_CODE_WRONG_CONTENT_TYPE).",
                hint: "Send Content-Type: application/json.")
        }
        let mediaType = String(header.split(separator: ";", maxSplits: 1).first ?? "").filter { $0 != " " && $0 != "\t" }.lowercased()
        guard mediaType != "application/json" else { return nil }
        return AndroidCheckFinding.contentTypeNotJSON.finding(at: nil,
            "\(facts.url) is served as \(mediaType.isEmpty ? "an empty Content-Type" : mediaType), not application/json; Google reports ERROR_CODE_WRONG_CONTENT_TYPE.",
            hint: "Send Content-Type: application/json for this path.")
    }

    // MARK: - User agents (§2.4)

    static func userAgentFindings(_ google: TransportFacts, others: [TransportFacts]) -> [Finding] {
        let googleWorks = servesStatusOK(google)
        let googleFile = googleWorks ? AssetLinksReader.read(google.body).file : nil
        for other in others {
            let otherWorks = servesStatusOK(other)
            let agent = other.userAgent ?? "another user agent"
            if googleWorks != otherWorks || (!googleWorks && google.status != other.status) {
                let blocked = !googleWorks && otherWorks
                return [AndroidCheckFinding.fetcherBlocked.finding(at: nil,
                    "\(google.url) answers \(outcome(google)) to \(google.userAgent ?? "Google's fetcher") but \(outcome(other)) to \(agent); a firewall or bot filter treats Google's fetcher differently.",
                    hint: "Allow-list /.well-known/ in WAF and bot rules for every user agent, GoogleAssociationService in particular (it fetches from Google's address ranges).",
                    severity: blocked ? .error : .warning)]
            }
            if googleWorks, otherWorks, google.body != other.body {
                let otherFile = AssetLinksReader.read(other.body).file
                let differs = switch (googleFile, otherFile) {
                case (let a?, let b?): !AssetLinksDiff.diff(old: a, new: b).isBehaviourallyEqual
                case (nil, nil): false
                default: true
                }
                if differs {
                    return [AndroidCheckFinding.fetcherBlocked.finding(at: nil,
                        "\(google.url) serves a different statement list to \(google.userAgent ?? "Google's fetcher") than to \(agent).",
                        hint: "Make sure Google's fetcher gets the file you test with.")]
                }
            }
        }
        return []
    }

    // MARK: - Host forms and robots.txt (§2.2, §2.4)

    /// `example.com.` must serve what `example.com` serves (A-TRB): the API names sites in that form,
    /// and a server or CDN that routes by the exact Host header can answer it otherwise.
    static func trailingDotFinding(_ origin: TransportFacts, _ dotted: TransportFacts) -> Finding? {
        let same = origin.status == dotted.status && (origin.failure == nil) == (dotted.failure == nil)
            && (!servesStatusOK(origin) || origin.body == dotted.body)
        guard !same else { return nil }
        let what = servesStatusOK(origin) && servesStatusOK(dotted) ? "another file" : outcome(dotted)
        return AndroidCheckFinding.trailingDotMismatch.finding(at: nil,
            "\(dotted.url) (the fully-qualified form of the host) answers \(what), while \(origin.url) answers \(outcome(origin)).",
            hint: "Serve the same file for the host name with a trailing dot (add it to the server's or CDN's host names).")
    }

    /// The path robots.txt rules are matched against.
    public static let filePath = "/.well-known/assetlinks.json"

    /// robots.txt that keeps Googlebot (or every crawler, `*`) from the file (C-AFF: Chrome's credential
    /// sharing asks that Googlebot may read it; the effect on App Links is uncertain, hence a warning).
    /// Google reads a robots.txt answered with 200; a 4xx means no rules, and a 5xx or a redirect is
    /// left alone here (Google retries or follows it; this fetcher follows nothing) [inferred].
    static func robotsFinding(_ robots: TransportFacts, fileURL: String) -> Finding? {
        guard robots.failure == nil, robots.status == 200 else { return nil }
        let rules = RobotsRules(robots.body)
        // Googlebot's own group first; without one it obeys `*`, which is then the group to name.
        for agent in rules.namesAgent("googlebot") ? ["googlebot", "*"] : ["*"] {
            guard let rule = rules.decidingRule(for: filePath, agent: agent), !rule.allow else { continue }
            return AndroidCheckFinding.robotsDisallow.finding(at: nil,
                "\(robots.url) disallows \(filePath) for \(agent == "*" ? "every crawler (User-agent: *)" : "Googlebot") with \"Disallow: \(rule.pattern)\"; Google's crawlers may not read \(fileURL).",
                hint: "Add \"Allow: /.well-known/\" to the group (a longer matching Allow wins over the Disallow).")
        }
        return nil
    }

    /// What an exchange came to, in words ("HTTP 403", "with an error (timeout: …)").
    public static func outcome(_ facts: TransportFacts) -> String {
        if let failure = facts.failure { return "with an error (\(failure.kind.rawValue): \(failure.message))" }
        if let status = facts.status { return "HTTP \(status)" }
        return "nothing"
    }

    // MARK: - Expectations (§10.5)

    /// The codes `expectationFindings` reports: they depend on the file and the expected apps alone, so
    /// a stored file re-measured against new expectations replaces exactly these.
    public static let expectationCodes: Set<String> = Set([
        AndroidCheckFinding.handleAllURLsMissing, AndroidCheckFinding.expectedPackageMissing,
        AndroidCheckFinding.expectedFingerprintMissing, AndroidCheckFinding.fingerprintUploadKeyOnly,
        AndroidCheckFinding.loginCredsMissing,
    ].map(\.code))

    /// What `file` (served at `url`; nil when Google reads no statement there) grants each expected
    /// app, as findings: a missing package or relation, missing fingerprints, the upload key only.
    public static func expectationFindings(_ file: AssetLinksFile?, _ expectations: [AndroidAppExpectation], url: String) -> [Finding] {
        var findings: [Finding] = []
        let statements = file ?? AssetLinksFile()
        for app in expectations {
            let package = app.packageName
            let granting = statements.statements(granting: Relation.handleAllURLs, to: package)
            let granted = Set(granting.flatMap(\.fingerprints))
            let identity = AndroidIdentityResult(packageName: package, expectedFingerprints: app.fingerprints, uploadKeys: app.uploadKeys,
                                                 named: statements.packageNames.contains(package),
                                                 grantedFingerprints: app.fingerprints.filter(granted.contains), grantsHandleAllURLs: !granting.isEmpty)
            findings += identityFindings(identity, url: url, fileRead: file != nil)
            if app.loginCredentials, statements.statements(granting: Relation.getLoginCreds, to: package).isEmpty {
                findings.append(AndroidCheckFinding.loginCredsMissing.finding(at: nil,
                    "\(url) does not grant delegate_permission/common.get_login_creds to \(package); saved passwords are not shared between the app and the site.",
                    hint: "Add the relation delegate_permission/common.get_login_creds to the app's statement."))
            }
        }
        return findings
    }

    // MARK: - Google's verdict (§6, §10.5)

    static func googleEvaluation(_ answer: GoogleAnswer, origin: AssetLinksFile?, facts: AndroidCheckFacts) -> ([Finding], AssetLinksDiff?) {
        switch answer {
        case .unavailable(let reason):
            return ([AndroidCheckFinding.googleUnavailable.finding(at: nil,
                "Google's Digital Asset Links API could not be asked: \(reason).")], nil)
        case .answered(let list, let checks):
            var findings: [Finding] = []
            let statementsRemain = !list.statements.isEmpty
            var reported = Set<String>()
            // A host that publishes no file and of which no app is expected: Google failing to fetch it is no news.
            let noFileExpected = !facts.expectsFile && [404, 410].contains(facts.origin.status)
            for code in list.errorCodes + checks.flatMap(\.errorCodes) where reported.insert(code).inserted {
                findings.append(AndroidCheckFinding.googleVerdictError.finding(at: nil,
                    "Google's API reports \(code) for this site: \(GoogleErrorCode.meaning(code))\(list.debugString.flatMap(debugReason).map { " (\($0))" } ?? "").",
                    hint: GoogleErrorCode.hint(code),
                    severity: noFileExpected ? .info : GoogleErrorCode.severity(code, statementsRemain: statementsRemain)))
            }
            for check in checks where !check.linked {
                findings.append(notLinkedFinding(packageName: check.packageName, fingerprint: check.fingerprint, relation: check.relation))
            }
            let googleFile = list.file
            let diff = AssetLinksDiff.diff(old: origin ?? AssetLinksFile(), new: googleFile)
            if !diff.isBehaviourallyEqual {
                let maxAge = list.maxAgeSeconds ?? 0
                let withinGrace = facts.originChangedSecondsAgo.map { $0 <= maxAge + googleGraceSeconds } ?? false
                findings.append(AndroidCheckFinding.googleStale.finding(at: nil,
                    "Google's copy behaves differently from the origin's: \(summary(diff))\(list.maxAgeSeconds.map { "; Google's answer is valid for \(Int($0)) s" } ?? "").",
                    hint: withinGrace ? "The origin changed recently; Google catches up within its maxAge." :
                        "Normal right after a change; if it persists, check that Google's fetcher can read the file (status, redirects, bot rules).",
                    severity: withinGrace ? .info : nil))
            }
            return (findings, diff)
        }
    }

    static func summary(_ diff: AssetLinksDiff) -> String {
        var parts: [String] = []
        if !diff.packagesAdded.isEmpty { parts.append("Google has \(diff.packagesAdded.joined(separator: ", ")) which the origin lacks") }
        if !diff.packagesRemoved.isEmpty { parts.append("Google lacks \(diff.packagesRemoved.joined(separator: ", "))") }
        if !diff.fingerprintsAdded.isEmpty {
            parts.append("Google has \(diff.fingerprintsAdded.count) fingerprint(s) the origin no longer lists")
        }
        if !diff.fingerprintsRemoved.isEmpty { parts.append("Google lacks \(diff.fingerprintsRemoved.count) fingerprint(s) the origin lists") }
        if !diff.grantsAdded.isEmpty || !diff.grantsRemoved.isEmpty, parts.isEmpty { parts.append("the relations granted differ") }
        if !diff.dynamicRules.isEmpty { parts.append("the dynamic rules of \(diff.dynamicRules.map(\.packageName).joined(separator: ", ")) differ") }
        return parts.isEmpty ? "the statements differ" : parts.joined(separator: "; ")
    }

    /// The line of Google's `debugString` that says what went wrong, cut to 300 characters; nil when
    /// none does. The text opens with a banner ("********* ERRORS *********"), so its first line is
    /// never the reason; banners, blank lines and "None!" (an empty section) are skipped.
    static func debugReason(_ debugString: String) -> String? {
        for line in debugString.split(whereSeparator: \.isNewline) {
            var text = line.drop { $0.isWhitespace }
            while text.last?.isWhitespace == true { text.removeLast() }
            if text.isEmpty || text == "None!" { continue }
            if text.hasPrefix("***") && text.hasSuffix("***") { continue }
            return String(text.prefix(300))
        }
        return nil
    }

    /// One finding per code and subject: a code repeated about the same thing (e.g. two user agents
    /// both blocked) is reported once; expectation and Google codes name different packages or codes.
    private static func deduplicated(_ findings: [Finding]) -> [Finding] {
        var seen = Set<String>()
        return findings.filter { seen.insert($0.code + "\u{0}" + $0.message).inserted }
    }
}

/// Google's `ERROR_CODE_*` values (assetlinks-spec.md §6) and how the monitor reports each.
public enum GoogleErrorCode {
    public static func severity(_ code: String, statementsRemain: Bool) -> Severity {
        switch code {
        case "ERROR_CODE_INVALID_QUERY", "ERROR_CODE_UNSPECIFIED": .info
        case "ERROR_CODE_MALFORMED_CONTENT": statementsRemain ? .warning : .error
        default: .error
        }
    }

    public static func meaning(_ code: String) -> String {
        switch code {
        case "ERROR_CODE_INVALID_QUERY": "the query could not be parsed (a bug of ours, not of the site)"
        case "ERROR_CODE_FETCH_ERROR": "Google could not fetch the file"
        case "ERROR_CODE_FAILED_SSL_VALIDATION": "the HTTPS certificate did not validate"
        case "ERROR_CODE_REDIRECT": "the file URL redirects, and redirects are not allowed"
        case "ERROR_CODE_TOO_LARGE": "the file exceeds Google's size limit"
        case "ERROR_CODE_MALFORMED_HTTP_RESPONSE": "the HTTP response could not be parsed"
        case "ERROR_CODE_WRONG_CONTENT_TYPE": "the Content-Type is not application/json"
        case "ERROR_CODE_MALFORMED_CONTENT": "the JSON is malformed (the whole file or a statement)"
        case "ERROR_CODE_SECURE_ASSET_INCLUDES_INSECURE": "the HTTPS file includes an http:// file"
        case "ERROR_CODE_FETCH_BUDGET_EXHAUSTED": "following the includes took too many fetches (perhaps a loop)"
        case "ERROR_CODE_UNSPECIFIED": "an unspecified error"
        default: "an error code this monitor does not know"
        }
    }

    public static func hint(_ code: String) -> String {
        switch code {
        case "ERROR_CODE_REDIRECT": "Serve the file at the exact host with status 200."
        case "ERROR_CODE_WRONG_CONTENT_TYPE": "Send Content-Type: application/json."
        case "ERROR_CODE_FAILED_SSL_VALIDATION": "Serve a complete, publicly trusted certificate chain."
        case "ERROR_CODE_MALFORMED_CONTENT": "Validate the file (aasa-monitor validate) and fix the dropped statements."
        case "ERROR_CODE_TOO_LARGE": "Split the file with include statements."
        default: "Fix what the code names at the origin; Google's answer follows within its maxAge."
        }
    }
}
