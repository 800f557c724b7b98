// The campaign's schedule, pure: which fault starts and ends when (seconds after the workers start), and
// which hosts break when, so the report can hold what happened against what was planned.
import Foundation

/// The hosts whose files the campaign breaks, by group. Every other host serves good files throughout.
enum HostGroup: String, CaseIterable {
    /// A file that turns invalid for three intervals: one alert opens and resolves per host.
    case breaks = "brk"
    /// Invalid for 0.6 of an interval: at most one failing check, so no alert (opens after 2).
    case blips = "blip"
    /// Hostile files, three intervals: 20 MB, 60,000 levels of nesting, binary garbage.
    case huge, deep
    case binary = "bin"
    /// An AASA dribbled one byte a second (the fetch times out): 2.4 intervals, unreachable meanwhile.
    case drip

    /// The host of the `index`-th domain of the campaign (the same numbering the SQL insert uses).
    static func host(_ index: Int) -> String {
        for group in allCases {
            let range = group.indices
            if range.contains(index) { return "\(group.rawValue)\(index).fleet.test" }
        }
        return "e\(index).fleet.test"
    }

    /// The campaign's first 80 domain numbers, 20 breaks, 20 blips, 10 of each hostile kind.
    var indices: Range<Int> {
        switch self {
        case .breaks: 0..<20
        case .blips: 20..<40
        case .huge: 40..<50
        case .deep: 50..<60
        case .binary: 60..<70
        case .drip: 70..<80
        }
    }

    var hosts: [String] { indices.map { HostGroup.host($0) } }

    /// Whether a host breaks long enough that exactly one alert must open (and resolve after recovery).
    var opensAlert: Bool { self != .blips }

    static func group(of host: String) -> HostGroup? {
        allCases.first { group in host.hasPrefix(group.rawValue) && host.dropFirst(group.rawValue.count).first?.isNumber == true }
    }
}

/// One window of the plan: a fault on from `start` to `end` (seconds after the workers start).
struct FaultWindow {
    var start: Double
    var end: Double
}

/// Every fault's times, from the run's length and the domains' interval. Windows that must (or must
/// not) open an alert are measured in intervals: an alert opens after 2 failing checks, and checks are
/// an interval ± 10 % apart, so > 2.2 intervals always holds two failing checks and < 0.9 never does.
struct FaultPlan {
    var minutes: Double
    var interval: Double

    var length: Double { minutes * 60 }

    /// Group → when its files are broken.
    func window(_ group: HostGroup) -> FaultWindow {
        switch group {
        case .breaks: FaultWindow(start: 0.2 * length, end: 0.2 * length + 3 * interval)
        case .blips: FaultWindow(start: 0.3 * length, end: 0.3 * length + 0.6 * interval)
        case .huge, .deep, .binary: FaultWindow(start: 0.15 * length, end: 0.15 * length + 3 * interval)
        // Each failing check takes the fetcher's 30 s timeout, and after its second failure an origin
        // waits two intervals (backoff): 2.4 intervals and two timeouts hold two failing checks and let
        // the third find the file well again, so its alert resolves within the run.
        case .drip: FaultWindow(start: 0.15 * length, end: 0.15 * length + 2.4 * interval + 2 * FaultPlan.fetchTimeout)
        }
    }

    /// The first webhook receiver refuses connections (stopped) for ten minutes (a third of a shorter run).
    var receiverDown: FaultWindow {
        FaultWindow(start: 0.25 * length, end: 0.25 * length + min(600, length / 3))
    }

    /// The fetcher's total timeout (FetchConfiguration's default): how long a dribbled file holds a check.
    static let fetchTimeout = 30.0

    /// The second receiver answers after `slowReceiverSeconds`, under the sender's 10 s timeout.
    var receiverSlow: FaultWindow { FaultWindow(start: 0.5 * length, end: 0.85 * length) }
    static let slowReceiverSeconds = 4.0

    /// PostgreSQL stopped with a fast shutdown, then with an immediate one (crash recovery at start).
    var postgresFast: FaultWindow { FaultWindow(start: 0.4 * length, end: 0.4 * length + 15) }
    var postgresImmediate: FaultWindow { FaultWindow(start: 0.75 * length, end: 0.75 * length + 15) }

    /// kill -9 of the second worker every tenth of the run, restarted 5 s later.
    var workerKills: [FaultWindow] {
        (0..<10).map { k in FaultWindow(start: (Double(k) + 0.5) * length / 10, end: (Double(k) + 0.5) * length / 10 + 5) }
            .filter { $0.end < length }
    }
}
