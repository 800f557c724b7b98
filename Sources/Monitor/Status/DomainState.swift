/// How a domain looks on the overview and in `aasa-monitor status`.
public enum DomainState: String, Hashable, Sendable, Codable {
    case passing
    case warnings
    case failing
    case neverChecked = "never checked"

    public init(lastVerdict: CheckVerdict?) {
        switch lastVerdict {
        case nil: self = .neverChecked
        case .pass: self = .passing
        case .warn: self = .warnings
        case .fail: self = .failing
        }
    }
}
