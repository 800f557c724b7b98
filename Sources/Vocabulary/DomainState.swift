/// How a domain stands, as the overview, the domain page, the API, the badge and `aasa-monitor
/// status` show it: its verdict (the file's, made worse by unmet expectations) in words, or that it
/// was never checked, or that a check is running now. The raw values are the API's and the pages'
/// (`state=failing` in a link, `state-failing` as a CSS class): keep them.
public enum DomainState: String, Hashable, Sendable, Codable, CaseIterable {
    case passing, warning, failing, checking, never

    /// `verdict` is nil before the first check; `checking` wins over both while a check runs.
    public init(verdict: Verdict?, checking: Bool = false) {
        if checking { self = .checking; return }
        switch verdict {
        case nil: self = .never
        case .pass: self = .passing
        case .warn: self = .warning
        case .fail: self = .failing
        }
    }

    /// What people read: on the pages ("Never checked") and, lower-cased, in `aasa-monitor status`.
    public var label: String {
        switch self {
        case .passing: "Passing"
        case .warning: "Warnings"
        case .failing: "Failing"
        case .checking: "Checking"
        case .never: "Never checked"
        }
    }

    /// Worst first: the overview's default order and its SQL `ORDER BY` (Store writes the CASE from this).
    public var worstFirstRank: Int {
        switch self {
        case .failing: 0
        case .warning: 1
        case .checking: 2
        case .never: 3
        case .passing: 4
        }
    }
}
