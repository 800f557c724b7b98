import AASA
import Foundation

/// Times as people read them on the dashboard: UTC dates and "3 min ago".
public enum DisplayTime {
    public static func date(_ epoch: Int64) -> String {
        let c = CivilDate.civil(daysSinceEpoch: CivilDate.split(secondsSinceEpoch: epoch).days)
        return "\(c.year)-\(pad(c.month))-\(pad(c.day))"
    }

    public static func dateTime(_ epoch: Int64) -> String {
        let (days, s) = CivilDate.split(secondsSinceEpoch: epoch)
        let c = CivilDate.civil(daysSinceEpoch: days)
        return "\(c.year)-\(pad(c.month))-\(pad(c.day)) \(pad(s / 3600)):\(pad(s / 60 % 60)) UTC"
    }

    public static func dateTime(_ date: Date) -> String { dateTime(Int64(date.timeIntervalSince1970)) }

    /// "just now", "5 min ago", "3 h ago", "12 days ago".
    public static func ago(_ epoch: Int64, now: Int64) -> String {
        let d = max(0, now - epoch)
        if d < 60 { return "just now" }
        if d < 3600 { return "\(d / 60) min ago" }
        if d < 86_400 { return "\(d / 3600) h ago" }
        let days = d / 86_400
        return days == 1 ? "1 day ago" : "\(days) days ago"
    }

    /// "in 3 min", "overdue".
    public static func until(_ epoch: Int64, now: Int64) -> String {
        let d = epoch - now
        if d <= 0 { return "due now" }
        if d < 3600 { return "in \(max(1, d / 60)) min" }
        if d < 86_400 { return "in \(d / 3600) h" }
        return "in \(d / 86_400) days"
    }

    private static func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

}
