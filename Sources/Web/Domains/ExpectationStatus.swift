import Vocabulary
import AASA
import Monitor

/// How the current file measures up to a domain's expectations, for the domain page: the same
/// evaluation the monitor's alert rules use (`ExpectationEvaluation`), so the page and the alerts agree.
public struct ExpectationStatus: Sendable, Equatable {
    /// "service appID" of every required app ID the file lacks.
    public var missingAppIDs: Set<String> = []
    /// Per watched URL: what it does under the current file, and whether that is what is expected.
    public struct Outcome: Sendable, Equatable {
        public var actual: String
        public var holds: Bool
        public init(actual: String, holds: Bool) {
            self.actual = actual
            self.holds = holds
        }
    }

    public var watchedOutcomes: [String: Outcome] = [:]
    /// One sentence per expectation that does not hold, in the page's order.
    public var failures: [String] = []

    public init(missingAppIDs: Set<String> = [], watchedOutcomes: [String: Outcome] = [:], failures: [String] = []) {
        self.missingAppIDs = missingAppIDs
        self.watchedOutcomes = watchedOutcomes
        self.failures = failures
    }

    /// Nil when `body` is not a usable file: the findings then say why, and no expectation can hold.
    static func evaluate(body: [UInt8], appIDs: [(service: Service, appID: String)],
                         watched: [(url: String, expectedAppID: String?)]) -> ExpectationStatus? {
        guard let document = AASAParser.parse(body).document else { return nil }
        var required: [Service: [String]] = [:]
        for a in appIDs {
            required[a.service, default: []].append(a.appID)
        }
        let expectations = Expectations(appIDs: required, watchedURLs: watched.map {
            WatchedURL(url: $0.url, expected: $0.expectedAppID.map(URLOutcome.opensApp) ?? .staysInBrowser)
        })
        let results = ExpectationEvaluation.evaluate(expectations, document: document)
        var status = ExpectationStatus()
        for a in appIDs where results.missingAppIDs[a.service]?.contains(a.appID) == true {
            status.missingAppIDs.insert("\(a.service) \(a.appID)")
            status.failures.append("\(a.appID) is missing from \(a.service)")
        }
        for r in results.watchedURLs {
            status.watchedOutcomes[r.url] = Outcome(actual: r.actual.description, holds: r.meetsExpectation)
            if !r.meetsExpectation { status.failures.append("\(r.url) \(r.actual) (expected: \(r.expected))") }
        }
        return status
    }
}
