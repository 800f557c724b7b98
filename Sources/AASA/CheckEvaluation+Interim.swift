
// INTERIM: `transportFindings` stands in for aasa-parse's `TransportValidator.findings(for:)` and
// `behavesLike` for aasa-match's `AASADiff.diff(old:new:).isBehaviourallyEqual` until they land on
// main. Codes follow aasa-spec.md §15.1 and the FindingCatalog.

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

/// A body as the evaluation sees it: validated by `AASAValidator`, comparable by behaviour.
struct DocumentSnapshot {
    var document: AASADocument?
    var findings: [Finding]
    private var raw: [UInt8]

    init(facts: TransportFacts) {
        let report = AASAValidator.validate(facts.body)
        document = report.document
        findings = report.sortedFindings
        raw = facts.body
    }

    /// Same behaviour: equal documents once source locations and comments (which change nothing a
    /// device does) are set aside; unreadable bodies compare by their bytes.
    func behavesLike(_ other: DocumentSnapshot) -> Bool {
        switch (document, other.document) {
        case (let a?, let b?): a.behaviourOnly == b.behaviourOnly
        case (nil, nil): raw == other.raw
        default: false
        }
    }
}

extension AASADocument {
    /// The document without what cannot change behaviour (positions, comments).
    var behaviourOnly: AASADocument {
        let nowhere = SourceLocation(pointer: "")
        var copy = self
        copy.wasSigned = false
        for key in copy.appServices.keys { copy.appServices[key]?.location = nowhere }
        if var links = copy.applinks {
            links.location = nowhere
            links.substitutionVariables = links.substitutionVariables.map { var v = $0; v.location = nowhere; return v }
            links.details = links.details.map { entry in
                var e = entry
                e.location = nowhere
                e.rules = e.rules.map { var r = $0; r.location = nowhere; r.comment = nil; return r }
                return e
            }
            copy.applinks = links
        }
        return copy
    }
}
