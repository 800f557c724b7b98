import Vocabulary

/// How one link of an app (a domain, a service, a platform) stands against one check of its domain.
/// Pure: the check's findings and expectation results in, a verdict and its one-line reason out.
///
/// The domain's own state is about the whole file; a link is about what this app needs of it: the
/// file's findings (without Apple's CDN for a `?mode=developer` link, which devices never read
/// through the CDN, aasa-spec.md §3.3) and the app's own IDs in the link's service.
public enum AppLinkStanding {
    public static func evaluate(findings: [Finding], expectations: ExpectationResults?, service: Service,
                                appIDs: [String], developerMode: Bool) -> (verdict: Verdict, reason: String?) {
        let relevant = developerMode ? findings.filter { !ReleaseGate.cdnCodes.contains($0.code) } : findings
        let missing = (expectations?.missingAppIDs[service] ?? []).filter(appIDs.contains)
        if !missing.isEmpty {
            return (.fail, "\(missing.joined(separator: ", ")) \(missing.count == 1 ? "is" : "are") not in the file's \(service.rawValue).")
        }
        let verdict = Verdict(findings: relevant)
        let worst = relevant.filter { $0.severity != .info }.min { $0.severity.rank < $1.severity.rank }
        return (verdict, verdict == .pass ? nil : worst?.message)
    }

    /// How long the current verdict has held: `history` is the domain's changed checks, newest
    /// first, each as (time, verdict of the link against it). Returns the time of the oldest check of
    /// the run that ends in the newest, and whether the run reaches past the history given (then the
    /// verdict has held at least that long).
    public static func since(_ current: Verdict, history: [(time: Double, verdict: Verdict)]) -> (time: Double, atLeast: Bool)? {
        var start: Double?
        for entry in history {
            guard entry.verdict == current else { return start.map { ($0, false) } }
            start = entry.time
        }
        return start.map { ($0, true) }
    }
}
