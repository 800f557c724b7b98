/// The instance's alert thresholds and retry interval (issue #31): how many failing checks in a row
/// open an alert, how many passing ones resolve it, and how soon a check that starts failing (or
/// passing) is checked again to confirm it. Kept in the `settings` table; absent keys are the defaults.
/// The check pipeline reads it (`AlertPolicy`), the settings page, the API and the config file write it.
public struct AlertTuning: Hashable, Sendable, Codable {
    public var failureThreshold: Int
    public var successThreshold: Int
    public var retryMinutes: Int

    public init(failureThreshold: Int = 2, successThreshold: Int = 1, retryMinutes: Int = 1) {
        self.failureThreshold = failureThreshold
        self.successThreshold = successThreshold
        self.retryMinutes = retryMinutes
    }

    public static let defaults = AlertTuning()
    /// More than 10 checks in a row would delay an alert by hours on an hourly domain: not a threshold.
    public static let thresholds = 1...10
    /// Minutes; a longer retry than an hour is the hourly interval itself.
    public static let retryRange = 1...60

    /// The fields out of range, each with what to write instead; empty when the tuning can be saved.
    /// Keys are the API's and the form's field names.
    public var problems: [String: String] {
        var problems: [String: String] = [:]
        let range = "from \(Self.thresholds.lowerBound) to \(Self.thresholds.upperBound)"
        if !Self.thresholds.contains(failureThreshold) { problems["failure_threshold"] = "Failing checks before an alert: \(range)." }
        if !Self.thresholds.contains(successThreshold) { problems["success_threshold"] = "Passing checks before it resolves: \(range)." }
        if !Self.retryRange.contains(retryMinutes) {
            problems["retry_minutes"] = "Minutes between confirming checks: from \(Self.retryRange.lowerBound) to \(Self.retryRange.upperBound)."
        }
        return problems
    }

    /// "alerts after 2 failing checks, 1 min apart" (the domain page's words).
    public var opening: String {
        let apart = failureThreshold > 1 ? ", \(retryMinutes) min apart" : ""
        return "alerts after \(Self.checks(failureThreshold, "failing"))\(apart)"
    }

    /// "alerts after 2 failing checks, 1 min apart; resolves after 1 passing check"
    public var sentence: String { "\(opening); resolves after \(Self.checks(successThreshold, "passing"))" }

    static func checks(_ n: Int, _ kind: String) -> String { n == 1 ? "1 \(kind) check" : "\(n) \(kind) checks" }

    enum Key {
        static let failureThreshold = "alert_failure_threshold"
        static let successThreshold = "alert_success_threshold"
        static let retryMinutes = "alert_retry_minutes"
    }
}

extension SettingsStore {
    /// The stored tuning; a key absent (or unreadable, which only a hand edit makes) is its default.
    public func alertTuning() throws -> AlertTuning {
        let rows = try rows("SELECT key, value FROM settings WHERE key = ANY($1)",
                            SQLArray([AlertTuning.Key.failureThreshold, AlertTuning.Key.successThreshold, AlertTuning.Key.retryMinutes]))
        var stored: [String: Int] = [:]
        for row in rows {
            let key: String = try row.decode("key"), value: String = try row.decode("value")
            stored[key] = Int(value)
        }
        let defaults = AlertTuning.defaults
        return AlertTuning(failureThreshold: stored[AlertTuning.Key.failureThreshold] ?? defaults.failureThreshold,
                           successThreshold: stored[AlertTuning.Key.successThreshold] ?? defaults.successThreshold,
                           retryMinutes: stored[AlertTuning.Key.retryMinutes] ?? defaults.retryMinutes)
    }

    /// Saves a tuning whose `problems` are empty (callers check; this refuses the rest as a programming error would be).
    public func setAlertTuning(_ tuning: AlertTuning) throws {
        guard tuning.problems.isEmpty else { throw AlertTuningError(problems: tuning.problems) }
        try setSetting(AlertTuning.Key.failureThreshold, String(tuning.failureThreshold))
        try setSetting(AlertTuning.Key.successThreshold, String(tuning.successThreshold))
        try setSetting(AlertTuning.Key.retryMinutes, String(tuning.retryMinutes))
    }
}

/// A tuning out of range, field by field (`AlertTuning.problems`).
public struct AlertTuningError: Error, Sendable, CustomStringConvertible {
    public var problems: [String: String]
    public var description: String { problems.sorted { $0.key < $1.key }.map(\.value).joined(separator: " ") }
}
