import AASA
import Testing
import Vocabulary

/// `CheckEvaluation.evaluate` on hand-made facts: the decisions the fleet tests cannot reach.
@Suite struct CheckEvaluationTests {
    static let file = Array(#"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/a/*"}]}]}}"#.utf8)
    static let sameFileReformatted = Array("""
        { "applinks": { "details": [ { "components": [ { "/": "/a/*", "comment": "shop" } ], "appIDs": ["ABCDE12345.com.example.app"] } ] } }
        """.utf8)
    static let otherFile = Array(#"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/b/*"}]}]}}"#.utf8)

    static func ok(_ location: TransportFacts.Location, _ body: [UInt8], userAgent: String = "AASA-Bot/1.0.0") -> TransportFacts {
        var facts = TransportFacts(location: location, url: "https://example.com/\(location.rawValue)", status: 200,
                                   headers: ["content-type": "application/json"], body: body,
                                   tls: TLSFacts(trusted: true))
        facts.userAgent = userAgent
        return facts
    }

    static func failed(_ location: TransportFacts.Location, _ kind: FetchFailure.Kind) -> TransportFacts {
        TransportFacts(location: location, url: "https://example.com/\(location.rawValue)",
                       failure: FetchFailure(kind: kind, message: "it failed"))
    }

    static func transportCodes(_ report: CheckReport) -> Set<String> {
        Set(report.codes).intersection(["root-path-deprecated", "locations-disagree", "cdn-stale", "cdn-failure",
                                         "user-agent-differs", "fetch-failed", "address-refused", "tls-untrusted",
                                         "http-status", "redirect-not-allowed"])
    }

    @Test func reformattedCDNCopyIsNotStale() {
        let report = CheckEvaluation.evaluate(wellKnown: Self.ok(.wellKnown, Self.file), root: nil,
                                              cdn: Self.ok(.cdn, Self.sameFileReformatted))
        #expect(Self.transportCodes(report).isEmpty)
        #expect(report.deviceLocation == .wellKnown)
    }

    @Test func cdnCopyOfAFileTheOriginNoLongerServesIsStale() {
        var gone = Self.ok(.wellKnown, [])
        gone.status = 404
        let report = CheckEvaluation.evaluate(wellKnown: gone, root: nil, cdn: Self.ok(.cdn, Self.file))
        #expect(Self.transportCodes(report) == ["http-status", "cdn-stale"])
        #expect(report.verdict == .fail && !report.couldNotCheck)
    }

    @Test func cdnUnreachableIsACDNFailure() {
        let report = CheckEvaluation.evaluate(wellKnown: Self.ok(.wellKnown, Self.file), root: nil,
                                              cdn: Self.failed(.cdn, .timeout))
        #expect(Self.transportCodes(report) == ["cdn-failure"])
    }

    @Test func differentFileForABrowserIsAWarning() {
        let report = CheckEvaluation.evaluate(wellKnown: Self.ok(.wellKnown, Self.file), root: nil, cdn: nil,
                                              plainUserAgent: Self.ok(.wellKnown, Self.otherFile, userAgent: "Mozilla/5.0"))
        let finding = report.findings.first { $0.code == "user-agent-differs" }
        #expect(finding?.severity == .warning)
        #expect(report.verdict == .warn)
    }

    @Test func onlyTheBrowserRefusedIsAWarningNotAnError() {
        var refused = Self.ok(.wellKnown, [], userAgent: "Mozilla/5.0")
        refused.status = 403
        let report = CheckEvaluation.evaluate(wellKnown: Self.ok(.wellKnown, Self.file), root: nil, cdn: nil,
                                              plainUserAgent: refused)
        #expect(report.findings.first { $0.code == "user-agent-differs" }?.severity == .warning)
    }

    @Test func rootAgreeingWithWellKnownIsFine() {
        let report = CheckEvaluation.evaluate(wellKnown: Self.ok(.wellKnown, Self.file), root: Self.ok(.root, Self.sameFileReformatted), cdn: nil)
        #expect(Self.transportCodes(report).isEmpty)
    }

    @Test func tlsFailureIsAFailNotCouldNotCheck() {
        let report = CheckEvaluation.evaluate(wellKnown: Self.failed(.wellKnown, .tlsExpired), root: Self.failed(.root, .tlsExpired), cdn: nil)
        #expect(Self.transportCodes(report) == ["tls-untrusted"])
        #expect(report.verdict == .fail && !report.couldNotCheck)
    }

    @Test func timeoutEverywhereCouldNotCheck() {
        let report = CheckEvaluation.evaluate(wellKnown: Self.failed(.wellKnown, .timeout), root: Self.failed(.root, .timeout), cdn: nil)
        #expect(Self.transportCodes(report) == ["fetch-failed"])
        #expect(report.couldNotCheck && report.deviceLocation == nil)
    }

    @Test func findingsAreOrderedBySeverity() {
        var octet = Self.ok(.wellKnown, [0xEF, 0xBB, 0xBF] + Self.file)
        octet.headers["content-type"] = "application/octet-stream"
        let report = CheckEvaluation.evaluate(wellKnown: octet, root: nil, cdn: Self.failed(.cdn, .timeout))
        let ranks = report.findings.map(\.severity.rank)
        #expect(ranks == ranks.sorted())
        #expect(report.findings.first?.code == "cdn-failure")
    }
}

/// The CDN copy's age in the units people read.
@Suite struct CDNAgeTextTests {
    @Test(arguments: [(0, "0 s"), (45, "45 s"), (60, "1 min"), (754, "12 min"), (3600, "1 h"), (5400, "1 h 30 min"),
                      (86_399, "23 h 59 min"), (86_400, "1 day"), (172_800, "2 days"), (190_800, "2 days 5 h"),
                      (8 * 86_400 + 7200, "8 days"), (-5, "0 s")])
    func describes(seconds: Int, text: String) {
        #expect(ElapsedTime.describe(seconds: seconds) == text)
    }

    @Test func staleCDNMessageQuotesTheAgeInHumanUnits() {
        var cdn = CheckEvaluationTests.ok(.cdn, CheckEvaluationTests.otherFile)
        cdn.headers["age"] = "5400"
        let report = CheckEvaluation.evaluate(wellKnown: CheckEvaluationTests.ok(.wellKnown, CheckEvaluationTests.file), root: nil, cdn: cdn)
        let message = report.findings.first { $0.code == "cdn-stale" }?.message ?? ""
        #expect(message.contains("(the CDN copy is 1 h 30 min old)"), "\(message)")
        #expect(!message.contains("5400"))

        cdn.headers["age"] = "soon"
        let unreadable = CheckEvaluation.evaluate(wellKnown: CheckEvaluationTests.ok(.wellKnown, CheckEvaluationTests.file), root: nil, cdn: cdn)
        #expect(unreadable.findings.first { $0.code == "cdn-stale" }?.message == "Apple's CDN serves a file that behaves differently from the origin's.")
    }
}
