import Vocabulary
import AASA
import Foundation
import Testing
@testable import Monitor

@Suite struct CheckComparisonTests {
    @Test func firstCheckChangesNothing() {
        #expect(CheckComparison.events(previous: nil, current: passingCheck()).isEmpty)
    }

    @Test func identicalChecksChangeNothing() {
        #expect(CheckComparison.events(previous: passingCheck(), current: passingCheck(at: 1_700_003_600)).isEmpty)
    }

    @Test func versionChange() {
        let events = CheckComparison.events(previous: passingCheck(sha: "aaaa"), current: passingCheck(sha: "bbbb"))
        #expect(events == [.versionChanged(from: "aaaa", to: "bbbb")])
    }

    @Test func verdictFlip() {
        var current = passingCheck()
        current.apple?.verdict = .warn
        current.apple?.findings = [finding("content-type-not-json", .warning)]
        let events = CheckComparison.events(previous: passingCheck(), current: current)
        #expect(events == [.verdictChanged(from: .pass, to: .warn), .findingsAppeared([finding("content-type-not-json", .warning)])])
    }

    @Test func unreachableLosesTheFileToo() {
        let events = CheckComparison.events(previous: passingCheck(sha: "aaaa"), current: unreachableCheck())
        #expect(events == [
            .becameUnreachable,
            .versionChanged(from: "aaaa", to: nil),
            .verdictChanged(from: .pass, to: .fail),
            .findingsAppeared([finding("fetch-failed")].map { var f = $0; f.message = "connection refused"; return f }),
        ])
        let back = CheckComparison.events(previous: unreachableCheck(), current: passingCheck(sha: "aaaa"))
        #expect(back.first == .becameReachable)
    }

    @Test func findingsIdentifiedByCodeAndLocationNotMessage() {
        var previous = passingCheck()
        previous.apple?.findings = [finding("a", at: "/x"), finding("b", at: "/y")]
        var current = passingCheck()
        var reworded = finding("a", at: "/x")
        reworded.message = "new wording"
        current.apple?.findings = [reworded, finding("b", at: "/z"), finding("c")]
        let events = CheckComparison.events(previous: previous, current: current)
        #expect(events == [.findingsAppeared([finding("b", at: "/z"), finding("c")]),
                           .findingsDisappeared([finding("b", at: "/y")])])
    }

    @Test func appIDRemovedAndRestored() {
        var previous = passingCheck()
        previous.apple?.expectations.missingAppIDs = [.webcredentials: ["T.old"]]
        var current = passingCheck()
        current.apple?.expectations.missingAppIDs = [.applinks: ["T.app"]]
        let events = CheckComparison.events(previous: previous, current: current)
        #expect(events == [.appIDsDisappeared(.applinks, ["T.app"]), .appIDsReappeared(.webcredentials, ["T.old"])])
    }

    @Test func watchedURLStopsOpeningTheApp() {
        var previous = passingCheck()
        previous.apple?.expectations.watchedURLs = [
            WatchedURLResult(url: "https://e.example/p", expected: .opensApp("T.app"), actual: .opensApp("T.app")),
            WatchedURLResult(url: "https://e.example/q", expected: .staysInBrowser, actual: .staysInBrowser),
        ]
        var current = previous
        current.apple?.expectations.watchedURLs[0].actual = .staysInBrowser
        current.apple?.expectations.watchedURLs.append(
            WatchedURLResult(url: "https://e.example/new", expected: .staysInBrowser, actual: .opensApp("T.app")))
        let events = CheckComparison.events(previous: previous, current: current)
        // The newly watched URL has no previous outcome, so it did not "flip".
        #expect(events == [.watchedURLChanged(url: "https://e.example/p", from: .opensApp("T.app"), to: .staysInBrowser)])
    }
}
