/// A span of seconds in the units people read: "45 s", "12 min", "1 h 30 min", "2 days", "3 days 4 h".
/// Pure; used where a finding quotes an age (the CDN's `Age` header is in seconds).
public enum ElapsedTime {
    public static func describe(seconds: Int) -> String {
        let s = max(seconds, 0)
        if s < 60 { return "\(s) s" }
        if s < 3600 { return "\(s / 60) min" }
        if s < 86_400 {
            let hours = s / 3600, minutes = s % 3600 / 60
            return minutes == 0 ? "\(hours) h" : "\(hours) h \(minutes) min"
        }
        let days = s / 86_400, hours = s % 86_400 / 3600
        let dayText = days == 1 ? "1 day" : "\(days) days"
        // Past a week the hours say nothing a reader needs.
        return hours == 0 || days >= 7 ? dayText : "\(dayText) \(hours) h"
    }
}
