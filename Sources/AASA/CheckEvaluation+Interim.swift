import Foundation

// INTERIM: stands in for aasa-parse's `TransportValidator`/`AASAValidator` and aasa-match's
// `AASADiff` until they land on main; then `transportFindings` calls `TransportValidator.findings(for:)`,
// `DocumentSnapshot` wraps `AASAValidator.validate`, and `behavesLike` uses
// `AASADiff.diff(old:new:).isBehaviourallyEqual`. Codes follow aasa-spec.md §15.1.

extension CheckEvaluation {
    static func transportFindings(_ facts: TransportFacts) -> [Finding] {
        if let failure = facts.failure {
            return [failureFinding(failure, url: facts.url)]
        }
        guard let status = facts.status else { return [] }
        if (300...399).contains(status) {
            let target = facts.redirectTarget ?? facts.header("location") ?? "nowhere"
            return [Finding(code: "redirect-not-allowed", severity: .error,
                            message: "\(facts.url) answers \(status) redirecting to \(target); Apple's fetcher follows no redirect. Serve the file directly at this URL with status 200.")]
        }
        guard status == 200 else {
            return [Finding(code: "http-status", severity: .error,
                            message: "\(facts.url) answers HTTP \(status); Apple needs 200. Make the file reachable for every client, region and user agent.")]
        }
        var findings: [Finding] = []
        let signed = facts.body.first == 0x30
        let mediaType = facts.header("content-type")?.split(separator: ";").first?
            .trimmingCharacters(in: .whitespaces).lowercased()
        let expected = signed ? "application/pkcs7-mime" : "application/json"
        if mediaType != expected {
            findings.append(Finding(code: "content-type-not-json", severity: .warning,
                                    message: "\(facts.url) is served \(mediaType.map { "as \($0)" } ?? "without a Content-Type"); serve it as \(expected)."))
        }
        if facts.decodedSize > 131_072 {
            findings.append(Finding(code: "size-over-128k", severity: .error,
                                    message: "The file is \(facts.decodedSize) bytes after decoding; Apple reads at most 128 KB (131,072 bytes). Split rules with wildcards or substitution variables."))
        } else if facts.decodedSize > 128_000 {
            findings.append(Finding(code: "size-near-128k", severity: .warning,
                                    message: "The file is \(facts.decodedSize) bytes after decoding, at Apple's 128 KB limit; if the limit means 128,000 bytes it is already too large."))
        }
        if facts.body.starts(with: [0xEF, 0xBB, 0xBF]) {
            findings.append(Finding(code: "utf8-bom", severity: .warning,
                                    message: "The file starts with a UTF-8 byte-order mark, which JSON forbids; save it without BOM."))
        }
        return findings
    }

    static func failureFinding(_ failure: FetchFailure, url: String) -> Finding {
        switch failure.kind {
        case .tlsUntrusted, .tlsExpired, .tlsWrongHost:
            return Finding(code: "tls-untrusted", severity: .error,
                           message: "\(url): \(failure.message). Apple accepts only certificates that chain to a system root, match the host name and are in date.")
        case .notHTTPS:
            return Finding(code: "not-https", severity: .error, message: "\(url): \(failure.message). Serve the file over HTTPS.")
        case .tooLarge:
            return Finding(code: "size-over-128k", severity: .error,
                           message: "\(url): \(failure.message). Apple reads at most 128 KB (131,072 bytes).")
        case .addressRefused:
            return Finding(code: "address-refused", severity: .error, message: failure.message)
        case .dns, .refused, .timeout, .reset, .other:
            return Finding(code: "fetch-failed", severity: .error,
                           message: "\(url) could not be fetched (\(failure.kind.rawValue)): \(failure.message).")
        }
    }
}

/// A body as the evaluation sees it: parsed (or not), with its findings, comparable by behaviour.
struct DocumentSnapshot {
    var document: AASADocument?
    var findings: [Finding]
    /// Sorted-keys re-serialisation: equal for files that differ only in formatting or key order.
    var canonical: Data

    init(facts: TransportFacts) {
        var bytes = facts.body
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        document = nil
        if let object = try? JSONSerialization.jsonObject(with: Data(bytes), options: []),
           object is [String: Any] {
            canonical = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data(bytes)
            findings = []
        } else if facts.body.first == 0x30 {
            canonical = Data(facts.body)
            findings = [Finding(code: "signed-file-deprecated", severity: .deprecation,
                                message: "The file is a signed CMS message; Apple deprecated signed files in 2019. Serve plain JSON.")]
        } else {
            // Unreadable bodies compare by their bytes, so two identical broken files agree.
            canonical = Data([0xFF] + facts.body)
            findings = [Finding(code: "invalid-json", severity: .error,
                                message: "The body of \(facts.url) is not a JSON object; Apple cannot read it.")]
        }
    }

    func behavesLike(_ other: DocumentSnapshot) -> Bool {
        canonical == other.canonical
    }
}
