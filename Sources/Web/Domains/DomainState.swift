/// The state a domain shows on the dashboard.
public enum DomainState: String, Sendable, CaseIterable, Codable {
    case passing, warning, failing, checking, never

    public var label: String {
        switch self {
        case .passing: "Passing"
        case .warning: "Warnings"
        case .failing: "Failing"
        case .checking: "Checking"
        case .never: "Never checked"
        }
    }

    /// Maps a stored verdict (`pass`/`warn`/`fail`) to a state; nil verdict means never checked.
    public init(verdict: String?, checking: Bool = false) {
        if checking { self = .checking; return }
        switch verdict {
        case "pass": self = .passing
        case "warn": self = .warning
        case "fail": self = .failing
        default: self = .never
        }
    }

    public var pill: HTML { "<span class=\"pill state-\(rawValue)\">\(label)</span>" }
}
