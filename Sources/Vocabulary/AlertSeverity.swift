/// How loudly an alert speaks. The monitor gives every rule one; the outbox stores it with each
/// event, channels subscribe from a minimum tier up, and receivers read it: keep the raw values.
/// CDN lag is expected after every change and must not page anyone at 3 a.m., so it gets its own
/// lower tier.
public enum AlertSeverity: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
    /// Something broke: devices stop opening the app.
    case critical
    /// The lower tier, e.g. Apple's CDN lagging behind a change: worth knowing, not worth a page.
    case warning
    /// Informational: a new version was published.
    case info

    private var rank: Int {
        switch self {
        case .critical: 0
        case .warning: 1
        case .info: 2
        }
    }

    /// Lower rank is more severe, so sorting puts critical first: `.critical < .warning`.
    public static func < (lhs: AlertSeverity, rhs: AlertSeverity) -> Bool { lhs.rank < rhs.rank }

    /// Whether a channel whose minimum is `minimum` wants this event.
    public func reaches(minimum: AlertSeverity) -> Bool { rank <= minimum.rank }
}
