import Foundation
import Vocabulary
import AASA
import Testing
@testable import Monitor

/// The domain's overall state: the file's verdict, failing when an expectation is unmet.
@Suite struct DomainVerdictTests {
    static let app = "ABCDE12345.com.example.app"
    let warning = Finding(code: "content-type-not-json", severity: .warning, message: "The file is served as text/plain.")
    let error = Finding(code: "http-status", severity: .error, message: "The server answered HTTP 404.")

    @Test func aValidFileWithEveryExpectationMetKeepsItsVerdictAndWorstFinding() {
        let met = ExpectationResults(watchedURLs: [WatchedURLResult(url: "https://a.example/x", expected: .opensApp(Self.app),
                                                                    actual: .opensApp(Self.app))])
        #expect(DomainVerdict(fileVerdict: .pass, findings: [], expectations: met) == DomainVerdict(verdict: .pass, reason: nil, apple: .pass))
        #expect(DomainVerdict(fileVerdict: .warn, findings: [warning], expectations: met)
                == DomainVerdict(verdict: .warn, reason: DomainReason("The file is served as text/plain.", platform: .apple), apple: .warn))
    }

    /// An informational note ("applinks has no apps key; iOS 12…") is no problem of the domain: a
    /// passing or warning row never shows it as its reason (issue #32).
    @Test func anInfoNoteIsNeverTheReasonOfAPassingOrWarningFile() {
        let info = Finding(code: "applinks-apps-missing", severity: .info, message: "applinks has no apps key; iOS 12 and earlier need it.")
        #expect(DomainVerdict(fileVerdict: .pass, findings: [info], expectations: ExpectationResults())
                == DomainVerdict(verdict: .pass, reason: nil, apple: .pass))
        #expect(DomainVerdict(fileVerdict: .warn, findings: [info, warning], expectations: ExpectationResults()).reason == DomainReason(warning.message, platform: .apple))
        // Android's side alike: its note does not worsen a passing domain's reason.
        let android = AndroidResult(verdict: .pass, serves: true, versionSHA256: "ab", findings: [info])
        #expect(DomainVerdict(CheckSummary(checkedAt: Date(timeIntervalSince1970: 0), reachable: true, android: android)).reason == nil)
    }

    /// The row leads with the most severe open problem: an alert open on a passing or warning domain
    /// (a certificate expiring in 5 days) outranks a note about its file; a failing verdict keeps its cause.
    @Test func anOpenAlertLeadsAPassingOrWarningRowButNotAFailingOne() {
        let expiring = OpenAlertSummary(severity: .critical, summary: "The certificate expires on 2026-12-07, within 7 days.")
        let lagging = OpenAlertSummary(severity: .warning, summary: "Apple's CDN still serves an older file, 30 h after the origin changed.")
        let notice = OpenAlertSummary(severity: .info, summary: "A new file was published.")
        var passing = DomainVerdict(fileVerdict: .pass, findings: [], expectations: ExpectationResults())
        passing.lead(with: [notice, lagging, expiring])
        #expect(passing == DomainVerdict(verdict: .pass, reason: DomainReason(expiring.summary, platform: nil), apple: .pass), "the most severe alert, the verdict kept")
        var warned = DomainVerdict(fileVerdict: .warn, findings: [warning], expectations: ExpectationResults())
        warned.lead(with: [lagging])
        #expect(warned.reason == DomainReason(lagging.summary, platform: nil), "an alert names no platform of the domain's")
        var noted = DomainVerdict(fileVerdict: .warn, findings: [warning], expectations: ExpectationResults())
        noted.lead(with: [notice])
        #expect(noted.reason == DomainReason(warning.message, platform: .apple), "an informational alert never leads")
        var failing = DomainVerdict(fileVerdict: .fail, findings: [error], expectations: ExpectationResults())
        failing.lead(with: [expiring])
        #expect(failing.reason == DomainReason(error.message, platform: .apple))
    }

    /// A refused file's reason carries its point within the 60 characters a row shows: the status
    /// first, then the URL (which alone is longer than that).
    @Test func aRefusedFileLeadsWithItsStatus() throws {
        let url = "https://links.a-rather-long-host-name.example.com/.well-known/apple-app-site-association"
        let refused = TransportFacts(location: .wellKnown, url: url, status: 403, headers: ["content-type": "text/html"],
                                     body: Array("Forbidden".utf8), tls: TLSFacts(trusted: true))
        let report = CheckEvaluation.evaluate(wellKnown: refused, root: nil, cdn: nil)
        let reason = try #require(DomainVerdict(fileVerdict: report.verdict, findings: report.findings,
                                                expectations: ExpectationResults()).reason?.line)
        #expect(report.verdict == .fail)
        #expect(reason.prefix(60).contains("HTTP 403"), "\(reason)")
        #expect(reason.hasPrefix("HTTP 403 at \(url)"), "\(reason)")
    }

    @Test func aMissingAppIDFailsAValidFileAndIsTheReason() {
        let missing = ExpectationResults(missingAppIDs: [.applinks: [Self.app]])
        #expect(DomainVerdict(fileVerdict: .pass, findings: [], expectations: missing)
                == DomainVerdict(verdict: .fail, reason: DomainReason("App ID \(Self.app) is missing from applinks.", platform: .apple), apple: .fail))
        // A warning is not the reason when an expectation is what fails.
        #expect(DomainVerdict(fileVerdict: .warn, findings: [warning], expectations: missing)
                == DomainVerdict(verdict: .fail, reason: DomainReason("App ID \(Self.app) is missing from applinks.", platform: .apple), apple: .fail))
    }

    @Test func watchedURLsThatDoSomethingElseFailWithTheirOwnWords() {
        func reason(expected: URLOutcome, actual: URLOutcome) -> String? {
            let results = ExpectationResults(watchedURLs: [WatchedURLResult(url: "https://a.example/buy", expected: expected, actual: actual)])
            let measured = DomainVerdict(fileVerdict: .pass, findings: [], expectations: results)
            #expect(measured.verdict == .fail && measured.reason?.platform == .apple)
            return measured.reason?.text
        }
        #expect(reason(expected: .opensApp(Self.app), actual: .staysInBrowser)
                == "Watched URL https://a.example/buy does not open \(Self.app): it stays in the browser.")
        #expect(reason(expected: .opensApp(Self.app), actual: .opensApp("ZZZZZ99999.other"))
                == "Watched URL https://a.example/buy opens ZZZZZ99999.other instead of \(Self.app).")
        #expect(reason(expected: .staysInBrowser, actual: .opensApp(Self.app))
                == "Watched URL https://a.example/buy opens \(Self.app) instead of staying in the browser.")
    }

    @Test func severalUnmetExpectationsNameTheFirstAndCountTheRest() {
        let results = ExpectationResults(
            missingAppIDs: [.webcredentials: ["ABCDE12345.b"], .applinks: ["ABCDE12345.a"]],
            watchedURLs: [WatchedURLResult(url: "https://a.example/x", expected: .opensApp("ABCDE12345.a"), actual: .staysInBrowser)])
        let measured = DomainVerdict(fileVerdict: .pass, findings: [], expectations: results)
        #expect(measured.reason == DomainReason("App ID ABCDE12345.a is missing from applinks (and 2 more unmet expectations).", platform: .apple))
        #expect(results.unmetDescriptions.count == 3)
        #expect(results.unmetDescriptions[1] == "App ID ABCDE12345.b is missing from webcredentials.")
    }

    @Test func aBrokenFileIsTheReasonEvenThoughItMissesEveryAppID() {
        let missing = ExpectationResults(missingAppIDs: [.applinks: [Self.app]])
        #expect(DomainVerdict(fileVerdict: .fail, findings: [warning, error], expectations: missing)
                == DomainVerdict(verdict: .fail, reason: DomainReason("The server answered HTTP 404.", platform: .apple), apple: .fail))
        // A failing verdict without findings still says something.
        #expect(DomainVerdict(fileVerdict: .fail, findings: [], expectations: missing).reason
                == DomainReason("App ID \(Self.app) is missing from applinks.", platform: .apple))
    }

    /// A domain watched for Android only: its state is Android's alone — a summary with no Apple side
    /// is judged by Android's file, even one that serves nothing (its owner chose Android).
    @Test func anAndroidOnlyCheckIsJudgedByAndroidAlone() {
        let passing = CheckSummary(checkedAt: Date(timeIntervalSince1970: 0), reachable: true,
                                   android: AndroidResult(verdict: .pass, serves: true, versionSHA256: "ab"))
        #expect(DomainVerdict(passing) == DomainVerdict(verdict: .pass, reason: nil, android: .pass))
        #expect(passing.verdict == .pass, "the check's own verdict is Android's file")
        let none = AndroidResult(verdict: .fail, serves: false, findings: [error])
        let missing = CheckSummary(checkedAt: Date(timeIntervalSince1970: 0), reachable: true, android: none)
        #expect(DomainVerdict(missing) == DomainVerdict(verdict: .fail, reason: DomainReason("The server answered HTTP 404.", platform: .android),
                                                        android: .fail))
        #expect(DomainVerdict(missing).reason?.line == "Android: The server answered HTTP 404.", "named Android's where it is shown")
        #expect(missing.verdict == .fail)
        // Beside a passing Apple side, the same unwatched Android result (no file, no app expected) does not count.
        var both = missing
        both.apple = AppleResult(verdict: .pass, originReachable: true, documentParsed: true)
        #expect(DomainVerdict(both) == DomainVerdict(verdict: .pass, reason: nil, apple: .pass), "Android not counted: no state of its own")
    }

    /// Each platform's own state counts that platform's unmet expectations and nothing of the other's:
    /// what the overview's columns, the API, `status` and the badge show.
    @Test func eachPlatformsStateCountsItsOwnUnmetExpectations() {
        let android = AndroidResult(verdict: .pass, serves: true, versionSHA256: "ab", watchedURLs: [
            AndroidWatchedURLResult(url: "https://a.example/help", expected: .staysInBrowser, actual: .opensApp("com.example.app"),
                                    beforeDynamicRules: .opensApp("com.example.app"), reason: "handle_all_urls")])
        let missing = ExpectationResults(missingAppIDs: [.applinks: [Self.app]])
        let measured = DomainVerdict(fileVerdict: .pass, findings: [], expectations: missing, android: android)
        #expect(measured.verdict == .fail && measured.apple == .fail && measured.android == .fail, "\(measured)")
        let appleMet = DomainVerdict(fileVerdict: .pass, findings: [], expectations: ExpectationResults(), android: android)
        #expect(appleMet.apple == .pass && appleMet.android == .fail && appleMet.verdict == .fail, "\(appleMet)")
        var androidMet = android
        androidMet.watchedURLs = []
        let appleUnmet = DomainVerdict(fileVerdict: .pass, findings: [], expectations: missing, android: androidMet)
        #expect(appleUnmet.apple == .fail && appleUnmet.android == .pass, "\(appleUnmet)")
    }
}
