import Vocabulary

/// Per-location transport findings (aasa-spec.md §15.1) from what the fetcher saw. Pure: the facts
/// come in, findings go out; nothing is fetched here.
public enum TransportValidator {
    public static func findings(for facts: TransportFacts) -> [Finding] {
        var findings: [Finding] = []
        let url = facts.url
        if let failure = facts.failure {
            findings.append(failureFinding(failure, url: url))
        }
        let alreadyNotHTTPS = facts.failure?.kind == .notHTTPS
        if !alreadyNotHTTPS, url.lowercased().hasPrefix("http:") {
            findings.append(FindingDefinition.notHTTPS.finding(at: nil,
                "\(url) is plain HTTP; Apple fetches association files over HTTPS only.",
                hint: "Serve the file over HTTPS with a certificate from a public CA."))
        }
        let tlsFailureReported = [.tlsUntrusted, .tlsExpired, .tlsWrongHost].contains(facts.failure?.kind)
        if let tls = facts.tls, !tls.trusted, !tlsFailureReported {
            findings.append(FindingDefinition.tlsUntrusted.finding(at: nil,
                "The certificate of \(url) is not trusted\(tls.failureReason.map { ": \($0)" } ?? ""). Apple accepts only certificates that chain to a system root and match the host.",
                hint: "Install a certificate from a public CA, with the intermediate certificates, valid for this host name."))
        }
        if let hops = facts.followedRedirects, let first = hops.first {
            findings.append(followedFinding(hops, first: first, final: facts))
        }
        guard let status = facts.status else { return findings }

        if facts.location == .cdn {
            let reason = facts.header("apple-failure-reason")
            if status != 200 || reason != nil {
                var message = "Apple's CDN (\(url)) answered HTTP \(status)"
                if let reason { message += " with Apple-Failure-Reason: \(reason)" }
                if let details = facts.header("apple-failure-details") { message += " (details: \(details))" }
                message += ". Devices on iOS 14+/macOS 11+ get the file only through the CDN."
                findings.append(FindingDefinition.cdnFailure.finding(at: nil, message,
                    hint: cdnHint(reason) + " The CDN re-fetches within about a day."))
                return findings
            }
        } else if (300...399).contains(status) {
            let target = facts.redirectTarget ?? facts.header("location")
            let why = target.map { $0.lowercased().hasPrefix("http:") } == true
                ? "Apple fetches association files over HTTPS only and follows no redirect to plain HTTP, so devices get no file."
                : (facts.followedRedirects?.count ?? 0) >= DirectRoute.maxRedirects
                    ? "the monitor followed \(DirectRoute.maxRedirects) redirects without reaching a file and stops there (a bound of its own)."
                    : "Apple documents redirects as unsupported, and devices get no file through this one."
            findings.append(FindingDefinition.redirectNotAllowed.finding(at: nil,
                "HTTP \(status) redirect at \(url) to \(target ?? "an unnamed location"); \(why)",
                hint: "Serve the file directly at this URL with status 200 (exclude it from http→https, apex→www and trailing-slash redirects)."))
            return findings
        } else if status != 200 {
            findings.append(FindingDefinition.httpStatus.finding(at: nil,
                // The point first: a row cuts its reason short, and the URL alone fills its width.
                "HTTP \(status) at \(url); Apple needs 200.",
                hint: status == 403 || status == 401
                    ? "Allow every client, region and user agent to read the file (bot protection and geo-blocking often cause this)."
                    : "Put the file at this exact path, without an extension, and make it public."))
            return findings
        }
        if facts.location != .cdn, let finding = contentTypeFinding(facts) { findings.append(finding) }
        findings += sizeFindings(facts)
        return findings
    }

    /// The direct route (an entitlement's `?mode=`): the device fetched the file itself and followed
    /// these redirects to `final`.
    static func followedFinding(_ hops: [FollowedRedirect], first: FollowedRedirect, final: TransportFacts) -> Finding {
        let chain = hops.map { "\($0.status) → \($0.location)" }.joined(separator: ", ")
        return FindingDefinition.redirectFollowed.finding(at: nil,
            "\(first.url) redirects (\(chain)). Apple documents redirects as unsupported; a device fetching the file directly (an entitlement's ?mode=developer or managed) follows an https redirect, so it read \(final.url).",
            hint: "Serve the file at the URL the entitlement names, with status 200, so it does not depend on a redirect.")
    }

    static func failureFinding(_ failure: FetchFailure, url: String) -> Finding {
        switch failure.kind {
        case .tlsUntrusted, .tlsExpired, .tlsWrongHost:
            FindingDefinition.tlsUntrusted.finding(at: nil,
                "\(url): \(failure.message). Apple accepts only certificates that chain to a system root, match the host name and are in date.",
                hint: "Renew or replace the certificate and serve the intermediate certificates too.")
        case .notHTTPS:
            FindingDefinition.notHTTPS.finding(at: nil, "\(url): \(failure.message). Apple fetches association files over HTTPS only.",
                hint: "Serve the file over HTTPS.")
        case .tooLarge:
            FindingDefinition.sizeOver128k.finding(at: nil,
                "\(url): \(failure.message). Apple reads at most 128 KB (131,072 bytes).",
                hint: "Shrink the file with wildcards or substitution variables.")
        case .addressRefused:
            FindingDefinition.addressRefused.finding(at: nil,
                "\(url): \(failure.message). Apple's CDN refuses private and reserved addresses as well.",
                hint: "Publish the host in public DNS with a public address.")
        case .dns, .refused, .timeout, .reset, .other:
            FindingDefinition.fetchFailed.finding(at: nil,
                "\(url) could not be fetched (\(failure.kind.rawValue)): \(failure.message).",
                hint: "Check that the host resolves in public DNS and answers HTTPS from everywhere.")
        }
    }

    /// `application/json` (a charset parameter is harmless [inferred]); a signed body `application/pkcs7-mime`.
    static func contentTypeFinding(_ facts: TransportFacts) -> Finding? {
        let signed: Bool
        if case .content = SignedDataUnwrapper.unwrap(facts.body) { signed = true } else { signed = false }
        let expected = signed ? ["application/pkcs7-mime", "application/x-pkcs7-mime"] : ["application/json"]
        guard let header = facts.header("content-type") else {
            return FindingDefinition.contentTypeNotJSON.finding(at: nil,
                "\(facts.url) is served without a Content-Type header; Apple documents \(expected[0]).",
                hint: "Send Content-Type: \(expected[0]).")
        }
        let mediaType = String(header.split(separator: ";", maxSplits: 1).first ?? "")
            .trimmingCharacters(in: " \t").lowercased()
        guard !expected.contains(mediaType) else { return nil }
        return FindingDefinition.contentTypeNotJSON.finding(at: nil,
            "\(facts.url) is served as \(mediaType.isEmpty ? "an empty Content-Type" : mediaType), not \(expected[0]). Apple's CDN often accepts it anyway, but it is not what Apple documents.",
            hint: "Send Content-Type: \(expected[0]) for this path.")
    }

    static func sizeFindings(_ facts: TransportFacts) -> [Finding] {
        let size = facts.decodedSize
        if size > AASAValidator.hardLimit {
            return [FindingDefinition.sizeOver128k.finding(at: nil,
                "\(facts.url) is \(size) bytes after decoding; Apple reads at most 128 KB (131,072 bytes) and ignores larger files.",
                hint: "Shrink it: merge rules with wildcards or substitution variables, drop apps no longer shipped.")]
        }
        return []
    }

    private static func cdnHint(_ reason: String?) -> String {
        guard let reason else { return "Check that the origin serves the file with 200 to every user agent." }
        if reason.contains("SWCERR00101") { return "The CDN got a bad HTTP answer from the origin: fix the origin's status." }
        if reason.contains("SWCERR00301") { return "The CDN timed out reaching the origin: make it answer quickly from everywhere." }
        if reason.contains("SWCERR00202") { return "The host resolves to a private or reserved address: publish a public one." }
        return "Fix what the reason names at the origin."
    }
}

extension String {
    /// Foundation-free trim for header values.
    fileprivate func trimmingCharacters(in set: String) -> String {
        let drop = Set(set.unicodeScalars)
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !drop.contains($0) }),
              let last = scalars.lastIndex(where: { !drop.contains($0) }) else { return "" }
        return String(scalars[first...last])
    }
}
