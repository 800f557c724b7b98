import Vocabulary
import Foundation

/// The remembered state of one alert key of one domain: failing or passing streaks, and whether
/// (and since when) the alert is open. Kept in the database, so a restart neither re-sends nor forgets.
public struct AlertTrack: Hashable, Sendable, Codable {
    public var key: AlertKey
    public var failingStreak: Int = 0
    public var passingStreak: Int = 0
    public var openedAt: Date?
    /// For threshold rules: the smallest threshold already announced.
    public var level: Int?
    public var summary: String = ""

    public var isOpen: Bool { openedAt != nil }
}
