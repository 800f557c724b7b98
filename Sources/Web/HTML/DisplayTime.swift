import Foundation

/// Times as people read them on the dashboard: UTC dates and "3 min ago".
public enum DisplayTime {
    public static func date(_ epoch: Int64) -> String {
        let c = civil(epoch)
        return "\(c.y)-\(pad(c.m))-\(pad(c.d))"
    }

    public static func dateTime(_ epoch: Int64) -> String {
        let c = civil(epoch)
        let s = Int(((epoch % 86_400) + 86_400) % 86_400)
        return "\(c.y)-\(pad(c.m))-\(pad(c.d)) \(pad(s / 3600)):\(pad(s / 60 % 60)) UTC"
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

    /// Days since 1970 to a civil date (Howard Hinnant's algorithm), so no calendar object per row.
    static func civil(_ epoch: Int64) -> (y: Int, m: Int, d: Int) {
        let z = Int((epoch >= 0 ? epoch : epoch - 86_399) / 86_400) + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
