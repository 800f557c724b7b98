import Vocabulary
import Foundation
import Store

extension MonitorState {
    /// The state the store remembers: the last changed check's summary, the streaks, the failures in a row.
    init(history: DomainHistory?, consecutiveFailures: Int) throws {
        let last = try history?.lastSummaryJSON.map { try StoredJSON.decode(CheckSummary.self, from: $0) }
        let tracks = try (history?.streaks ?? []).compactMap { try AlertTrack(row: $0) }
        self.init(last: last, tracks: tracks, consecutiveUnreachable: consecutiveFailures)
    }
}

/// The part of a track that `alert_streaks` keeps as JSON (the counts have columns of their own).
struct TrackState: Codable {
    var openedAt: Date?
    var level: Int?
    var summary: String
}

extension AlertTrack {
    /// nil for a rule this version does not know (a newer worker wrote it): it is dropped.
    init?(row: StreakRow) throws {
        guard let rule = AlertRule(rawValue: row.rule) else { return nil }
        let state = try StoredJSON.decode(TrackState.self, from: row.stateJSON)
        self.init(key: AlertKey(rule: rule, subject: row.subject), failingStreak: row.failing, passingStreak: row.passing,
                  openedAt: state.openedAt, level: state.level, summary: state.summary)
    }

    func row() throws -> StreakRow {
        StreakRow(rule: key.rule.rawValue, subject: key.subject, failing: failingStreak, passing: passingStreak,
                  stateJSON: try StoredJSON.encode(TrackState(openedAt: openedAt, level: level, summary: summary)))
    }
}
