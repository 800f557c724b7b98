import LocatedJSON
import Vocabulary

/// Everything `AASAValidator` found in a body, plus the document for callers that go on to match.
public struct ValidationReport: Sendable {
    public var document: AASADocument?
    /// In file order within each check; use `sortedFindings` for severity order.
    public var findings: [Finding]

    /// The most severe finding's severity; nil when there is none at all.
    public var worstSeverity: Severity? { findings.map(\.severity).min() }

    /// Errors first, then warnings, deprecations, infos; file order within a severity.
    public var sortedFindings: [Finding] {
        findings.enumerated().sorted { ($0.element.severity, $0.offset) < ($1.element.severity, $1.offset) }.map(\.element)
    }

    public func count(_ severity: Severity) -> Int { findings.filter { $0.severity == severity }.count }
}

/// Validates association-file bytes: everything that needs no HTTP exchange (aasa-spec.md §15.2,
/// plus the byte-level checks of §15.1: size, BOM, signing).
///
/// Never throws or traps for malformed input; findings carry stable codes documented in docs/findings.md.
public enum AASAValidator {
    /// Apple's "128 KB" is 131,072 bytes: the device's downloader (swcd, as of iOS 26.1) refuses a
    /// file only above it, so 128,001–131,072 bytes works and is not reported.
    static let hardLimit = 131_072

    public static func validate(_ bytes: [UInt8]) -> ValidationReport {
        var findings = FindingCollector(truncation: .findingsTruncated)
        findings.add(contentsOf: sizeFindings(bytes.count))
        let parsed = AASAParser.parse(bytes)
        // One cap for the whole report: the parser's own findings-truncated is replaced by ours.
        let truncated = FindingDefinition.findingsTruncated.code
        findings.add(contentsOf: parsed.findings.filter { $0.code != truncated })
        if let document = parsed.document {
            findings.add(contentsOf: DocumentChecks.findings(document))
        }
        var all = findings.finish()
        if findings.dropped == 0, parsed.findings.contains(where: { $0.code == truncated }) {
            all.append(FindingDefinition.findingsTruncated.finding(at: nil,
                "More findings were not listed; fix the ones above and validate again."))
        }
        return ValidationReport(document: parsed.document, findings: all)
    }

    static func sizeFindings(_ size: Int) -> [Finding] {
        if size > hardLimit {
            return [FindingDefinition.sizeOver128k.finding(at: nil,
                "The file is \(size) bytes; Apple's limit is 128 KB (131,072 bytes), and larger files are rejected.",
                hint: "Shrink it: merge rules with wildcards or substitution variables, drop apps and rules no longer used.")]
        }
        return []
    }
}
