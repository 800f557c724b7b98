import Vocabulary
import AASA

/// Compares a check with the one before it. Pure; the first check of a domain changes nothing.
public enum CheckComparison {
    public static func events(previous: CheckSummary?, current: CheckSummary) -> [CheckEvent] {
        guard let previous, let previousApple = previous.apple, let currentApple = current.apple else { return [] }
        return events(previous: previousApple, current: currentApple)
    }

    /// The events of Apple's side (Android's changes are told by its own notices and diff).
    static func events(previous: AppleResult, current: AppleResult) -> [CheckEvent] {
        var events: [CheckEvent] = []
        if previous.originReachable != current.originReachable {
            events.append(current.originReachable ? .becameReachable : .becameUnreachable)
        }
        if previous.versionSHA256 != current.versionSHA256 {
            events.append(.versionChanged(from: previous.versionSHA256, to: current.versionSHA256))
        }
        if previous.verdict != current.verdict {
            events.append(.verdictChanged(from: previous.verdict, to: current.verdict))
        }
        events += findingEvents(previous: previous.findings, current: current.findings)
        events += appIDEvents(previous: previous.expectations.missingAppIDs, current: current.expectations.missingAppIDs)
        events += watchedURLEvents(previous: previous.expectations.watchedURLs, current: current.expectations.watchedURLs)
        return events
    }

    /// A finding is "the same" when its code and location are: messages may be reworded between
    /// releases without that being a change of the file.
    struct FindingIdentity: Hashable {
        var code: String
        var pointer: String?
        init(_ finding: Finding) {
            code = finding.code
            pointer = finding.location?.pointer
        }
    }

    static func findingEvents(previous: [Finding], current: [Finding]) -> [CheckEvent] {
        let before = Set(previous.map(FindingIdentity.init))
        let after = Set(current.map(FindingIdentity.init))
        let appeared = current.filter { !before.contains(FindingIdentity($0)) }
        let disappeared = previous.filter { !after.contains(FindingIdentity($0)) }
        var events: [CheckEvent] = []
        if !appeared.isEmpty { events.append(.findingsAppeared(appeared)) }
        if !disappeared.isEmpty { events.append(.findingsDisappeared(disappeared)) }
        return events
    }

    static func appIDEvents(previous: [Service: [String]],
                            current: [Service: [String]]) -> [CheckEvent] {
        var events: [CheckEvent] = []
        for service in Service.allCases {
            let before = Set(previous[service] ?? [])
            let after = Set(current[service] ?? [])
            let gone = after.subtracting(before).sorted()
            let back = before.subtracting(after).sorted()
            if !gone.isEmpty { events.append(.appIDsDisappeared(service, gone)) }
            if !back.isEmpty { events.append(.appIDsReappeared(service, back)) }
        }
        return events
    }

    static func watchedURLEvents(previous: [WatchedURLResult], current: [WatchedURLResult]) -> [CheckEvent] {
        var before: [String: URLOutcome] = [:]
        for result in previous { before[result.url] = result.actual }
        return current.compactMap { result in
            // A URL added to the watch list since the last check has no "before" to flip from.
            guard let old = before[result.url], old != result.actual else { return nil }
            return .watchedURLChanged(url: result.url, from: old, to: result.actual)
        }
    }
}
