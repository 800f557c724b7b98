/// The overall judgement of one check, as the dashboard shows it.
public enum CheckVerdict: String, Hashable, Sendable, Codable, Comparable {
    case pass, warn, fail

    private var rank: Int {
        switch self {
        case .pass: 0
        case .warn: 1
        case .fail: 2
        }
    }

    public static func < (lhs: CheckVerdict, rhs: CheckVerdict) -> Bool { lhs.rank < rhs.rank }
}
