// What the campaign counts, kept apart from the processes: each check's lateness (finish − due), and the
// closing accounts of alerts and webhook deliveries against the plan. Pure apart from the rows it is fed.
import Foundation

/// Follows every domain's due time between samples: when a domain's last check moved, that check finished
/// at `last_checked_at` and was due at the `next_check_at` seen before it — its lateness, fetch included.
struct LatenessLedger {
    private var seen: [Int64: (due: Date, last: Date?)] = [:]
    /// Lateness of every check seen, in seconds, with its host and when it finished.
    private(set) var checks: [(host: String, seconds: Double, finished: Date)] = []

    mutating func observe(id: Int64, host: String, due: Date, last: Date?) {
        if let previous = seen[id], let last, last != previous.last {
            checks.append((host, last.timeIntervalSince(previous.due), last))
        }
        seen[id] = (due, last)
    }

    /// Checks later than `limit` seconds after their due time.
    func late(beyond limit: Double) -> [(host: String, seconds: Double, finished: Date)] { checks.filter { $0.seconds > limit } }

    /// How many checks of each host finished between `from` and `to`.
    func finished(between from: Date, and to: Date) -> [String: Int] {
        var counts: [String: Int] = [:]
        for check in checks where check.finished > from && check.finished <= to { counts[check.host, default: 0] += 1 }
        return counts
    }

    /// The `q` quantile of lateness (nearest rank), 0 when nothing was seen.
    func quantile(_ q: Double) -> Double {
        let sorted = checks.map(\.seconds).sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, max(0, Int((Double(sorted.count) * q).rounded(.up)) - 1))]
    }
}

/// One alert as the database holds it at the end.
struct AlertRecord {
    var host: String
    var rule: String
    var resolved: Bool
    var openedAt: Date
    var resolvedAt: Date?
}

/// The alerts of one group of hosts against its plan.
struct AlertAccount {
    var group: String
    var hosts: Int
    var expectedPerHost: Int
    /// Hosts the plan broke long enough for two checks, but that had fewer than two checks while broken
    /// (a killed worker's lease or an outage cost one): no alert is the product's right answer for them.
    var checkedOnce: [String] = []
    var opened = 0
    var resolved = 0
    /// Hosts whose number of alerts is not the expected one.
    var wrongHosts: [String] = []
    /// Alerts opened before the group's files broke, or resolved before they recovered.
    var outOfWindow = 0
    var rules: Set<String> = []

    var exact: Bool { wrongHosts.isEmpty && outOfWindow == 0 && resolved == opened }

    /// `window`: when the group's files were broken, as dates; nil for hosts that never break.
    /// `checksWhileBroken`: each host's checks that finished in the window (an alert opens after two).
    static func account(group: String, hosts: [String], expectedPerHost: Int, window: (start: Date, end: Date)?,
                        checksWhileBroken: [String: Int] = [:], alerts: [AlertRecord]) -> AlertAccount {
        var account = AlertAccount(group: group, hosts: hosts.count, expectedPerHost: expectedPerHost)
        let byHost = Dictionary(grouping: alerts, by: \.host)
        for host in hosts {
            let mine = byHost[host] ?? []
            var expected = expectedPerHost
            if expected > 0, window != nil, checksWhileBroken[host, default: 0] < 2 {
                account.checkedOnce.append(host)
                expected = 0
            }
            if mine.count != expected { account.wrongHosts.append(host) }
            for alert in mine {
                account.opened += 1
                account.rules.insert(alert.rule)
                if alert.resolved { account.resolved += 1 }
                if let window {
                    if alert.openedAt < window.start { account.outOfWindow += 1 }
                    if let resolvedAt = alert.resolvedAt, resolvedAt < window.end { account.outOfWindow += 1 }
                }
            }
        }
        return account
    }
}

/// One outbox row of an alert event, and what the receiver it was addressed to accepted under its key.
struct DeliveryRecord {
    var key: String
    var receiver: String
    var state: String
    var attempts: Int
}

/// The webhook deliveries of one receiver: rows in the outbox against 2xx answers at the receiver by key.
struct DeliveryAccount {
    var receiver: String
    var rows = 0, sent = 0, pending = 0, failed = 0
    var acceptedOnce = 0
    /// Sent (or still pending) rows the receiver never accepted.
    var lost: [String] = []
    /// Keys the receiver accepted more than once, with how often.
    var duplicated: [(key: String, times: Int)] = []
    /// Keys accepted that no outbox row has.
    var strays = 0
    var maxAttempts = 0

    static func account(receiver: String, rows: [DeliveryRecord], accepted: [String: Int]) -> DeliveryAccount {
        var account = DeliveryAccount(receiver: receiver)
        let keys = Set(rows.map(\.key))
        for row in rows {
            account.rows += 1
            account.maxAttempts = max(account.maxAttempts, row.attempts)
            switch row.state {
            case "sent": account.sent += 1
            case "pending": account.pending += 1
            default: account.failed += 1
            }
            switch accepted[row.key] ?? 0 {
            case 0: account.lost.append(row.key)
            case 1: account.acceptedOnce += 1
            case let times: account.duplicated.append((row.key, times))
            }
        }
        account.strays = accepted.keys.filter { !keys.contains($0) }.count
        return account
    }
}

/// Standard-error lines grouped by kind: the text with numbers, ids and quoted values blanked out.
enum LogKinds {
    static func kind(of line: String) -> String {
        var text = line
        if text.hasPrefix("aasa-monitor: ") { text.removeFirst("aasa-monitor: ".count) }
        var out = ""
        var inDigits = false
        for character in text {
            if character.isNumber {
                if !inDigits { out.append("N") }
                inDigits = true
            } else {
                inDigits = false
                out.append(character)
            }
        }
        return String(out.prefix(110))
    }

    static func count(_ lines: [String]) -> [(kind: String, count: Int)] {
        Dictionary(grouping: lines.filter { !$0.isEmpty }.map(kind), by: { $0 })
            .map { ($0.key, $0.value.count) }.sorted { $0.count > $1.count }
    }
}
