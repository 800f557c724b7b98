import LocatedJSON
import Vocabulary

/// Everything the validator derives from a `/.well-known/webauthn` file alone (passkeys-spec.md §3.4).
public struct RelatedOriginsReport: Sendable {
    public var reading: RelatedOriginsReading
    public var walk: LabelWalk
    /// Reader and entry findings, in file order.
    public var findings: [Finding]

    public var worstSeverity: Severity? { findings.map(\.severity).min() }

    /// The entries a supporting browser can match: parsed, https, a domain with a label, no `*`,
    /// and within the label window (§3.4 "usable" and "window").
    public var usableOrigins: [RelatedOrigin] {
        guard reading.rejection == nil else { return [] }
        return walk.origins.indices.filter { walk.isCounted($0) && RelatedOriginsValidator.isUsable(walk.origins[$0]) }
            .map { walk.origins[$0] }
    }
}

/// Validates `/.well-known/webauthn` bytes: the reader's findings plus one pass over the entries.
/// Never throws and never traps; with `rpID` it also notes entries the RP ID already covers.
public enum RelatedOriginsValidator {
    /// More entries than any real file needs; Chromium still reads them all (§6.1, inferred).
    public static let manyOriginsThreshold = 1_000

    public static func validate(_ bytes: [UInt8], rules: DomainRules, rpID: RelyingPartyID? = nil) -> RelatedOriginsReport {
        let reading = RelatedOriginsReader.read(bytes)
        let walk = LabelWalk(reading.entries.map { RelatedOrigin($0, rules: rules) })
        var findings = FindingCollector(truncation: WebAuthnFinding.findingsTruncated)
        findings.add(contentsOf: reading.findings)
        var firstByOrigin: [TupleOrigin: OriginEntry] = [:]
        for related in walk.origins {
            findings.add(contentsOf: EntryChecks.findings(related, rules: rules, rpID: rpID))
            guard let origin = related.origin else { continue }
            if let first = firstByOrigin[origin] {
                findings.add(WebAuthnFinding.originDuplicate.finding(at: related.entry.location,
                    "\"\(related.entry.text)\" is the origin \(origin) again (first at \(first.location.pointer)).",
                    hint: "Remove the repeat."))
            } else {
                firstByOrigin[origin] = related.entry
            }
        }
        reportWindow(walk, reading: reading, into: &findings)
        var report = RelatedOriginsReport(reading: reading, walk: walk, findings: [])
        if !reading.entries.isEmpty && report.usableOrigins.isEmpty && reading.rejection == nil {
            findings.add(WebAuthnFinding.noUsableOrigin.finding(at: reading.originsLocation,
                "No entry of \"origins\" is an https origin a browser can match within its \(LabelWalk.maxLabels)-label window, "
                    + "so the file relates no site to this RP ID.",
                hint: "List each related site as https://host (no path, no wildcard), e.g. \"https://shop.example\"."))
        }
        report.findings = findings.finish()
        return report
    }

    static func isUsable(_ related: RelatedOrigin) -> Bool {
        guard let parsed = related.parsed, parsed.scheme == "https", let domain = parsed.domain, related.label != nil else { return false }
        return !domain.contains("*")
    }

    private static func reportWindow(_ walk: LabelWalk, reading: RelatedOriginsReading, into findings: inout FindingCollector) {
        let ignored = walk.ignored
        if !ignored.isEmpty {
            let listed = ignored.prefix(10).map { "\"\($0.entry.text)\" (\($0.entry.location.pointer))" }.joined(separator: ", ")
            findings.add(WebAuthnFinding.labelLimit.finding(at: reading.originsLocation,
                "The file spends \(walk.allLabels.count) registrable-domain labels (\(walk.allLabels.joined(separator: ", "))); browsers keep the first "
                    + "\(LabelWalk.maxLabels) (\(walk.window.joined(separator: ", "))) and ignore \(ignored.count) entr\(ignored.count == 1 ? "y" : "ies"): "
                    + listed + (ignored.count > 10 ? ", …" : "") + ".",
                hint: "Put the origins that matter first, drop http:// and preview entries that spend labels, or move sites under fewer brands."))
        }
        let count = reading.entries.count
        if count > manyOriginsThreshold {
            findings.add(WebAuthnFinding.manyOrigins.finding(at: reading.originsLocation,
                "\"origins\" has \(count) entries; only the first \(LabelWalk.maxLabels) labels' origins can ever match.",
                hint: "Keep the list to the sites that use this RP ID."))
        }
    }
}
