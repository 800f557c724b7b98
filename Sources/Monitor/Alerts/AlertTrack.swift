import Vocabulary
import Foundation

/// The remembered state of one alert key of one domain: failing or passing streaks, and whether
/// (and since when) the alert is open. Kept in the database, so a restart neither re-sends nor forgets.
public struct AlertTrack: Hashable, Sendable, Codable {
    public var key: AlertKey
    public var failingStreak: Int
    public var passingStreak: Int
    public var openedAt: Date?
    /// For threshold rules: the smallest threshold already announced.
    public var level: Int?
    public var summary: String

    public init(key: AlertKey, failingStreak: Int = 0, passingStreak: Int = 0, openedAt: Date? = nil,
                level: Int? = nil, summary: String = "") {
        self.key = key
        self.failingStreak = failingStreak
        self.passingStreak = passingStreak
        self.openedAt = openedAt
        self.level = level
        self.summary = summary
    }

    public var isOpen: Bool { openedAt != nil }
}
