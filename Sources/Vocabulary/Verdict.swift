/// The judgement of one check, and of a domain: pass, warn or fail. Stored (`checks.verdict`,
/// `domains.last_verdict`), sent in the API and the CLI's JSON, and compared by the alert rules, so
/// the raw values are an API: keep them. Ordered by how bad: `.pass < .warn < .fail`.
public enum Verdict: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
    case pass, warn, fail

    /// The verdict a list of findings earns: any error fails, any warning or deprecation warns.
    public init(findings: [Finding]) {
        if findings.contains(where: { $0.severity == .error }) {
            self = .fail
        } else if findings.contains(where: { $0.severity == .warning || $0.severity == .deprecation }) {
            self = .warn
        } else {
            self = .pass
        }
    }

    private var rank: Int {
        switch self {
        case .pass: 0
        case .warn: 1
        case .fail: 2
        }
    }

    public static func < (lhs: Verdict, rhs: Verdict) -> Bool { lhs.rank < rhs.rank }
}
