import Vocabulary

/// How the current file measures up to a domain's expectations, for the domain page.
public struct ExpectationStatus: Sendable, Equatable {
    /// "service appID" of every required app ID the file lacks.
    public var missingAppIDs: Set<String> = []
    /// Per watched URL: what it does under the current file, and whether that is what is expected.
    public struct Outcome: Sendable, Equatable {
        public var actual: String
        public var holds: Bool
    }

    public var watchedOutcomes: [String: Outcome] = [:]
    /// One sentence per expectation that does not hold, in the page's order.
    public var failures: [String] = []
}

extension ExpectationStatus {
    /// The page's view of results the monitor stored (`domains.last_expectations`): the same
    /// evaluation its alert rules use (`ExpectationEvaluation`), so the page and the alerts agree.
    init(results: ExpectationResults, appIDs: [(service: Service, appID: String)]) {
        for a in appIDs where results.missingAppIDs[a.service]?.contains(a.appID) == true {
            missingAppIDs.insert("\(a.service) \(a.appID)")
            failures.append("\(a.appID) is missing from \(a.service)")
        }
        for r in results.watchedURLs {
            watchedOutcomes[r.url] = Outcome(actual: r.actual.description, holds: r.meetsExpectation)
            if !r.meetsExpectation { failures.append("\(r.url) \(r.actual) (expected: \(r.expected))") }
        }
    }
}
