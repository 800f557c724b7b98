import AASA
import Monitor
import Vocabulary
import Testing
@testable import Web

/// The domain page shows the current file measured against the operator's expectations (as the
/// monitor stored it, with the evaluation its alert rules use) and never claims "every expectation
/// holds" when one fails.
@Suite struct ExpectationStatusTests {
    static let app = "ABCDE12345.com.example.app"
    static let file = Array(#"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/old-products/*"}]}]}}"#.utf8)
    let viewer = Viewer(userID: 1, email: "ops@example.com", role: .admin, csrf: "token")

    @Test func namesEveryExpectationTheFileDoesNotMeet() throws {
        let document = try #require(AASAParser.parse(Self.file).document)
        let expectations = Expectations(appIDs: [.applinks: [Self.app], .webcredentials: [Self.app]], watchedURLs: [
            WatchedURL(url: "https://shop.example/products/42", expected: .opensApp(Self.app)),
            WatchedURL(url: "https://shop.example/old-products/1", expected: .opensApp(Self.app)),
            WatchedURL(url: "https://shop.example/help", expected: .staysInBrowser)])
        let status = ExpectationStatus(results: ExpectationEvaluation.evaluate(expectations, document: document),
                                       appIDs: [(.applinks, Self.app), (.webcredentials, Self.app)])
        #expect(status.missingAppIDs == ["webcredentials \(Self.app)"])
        #expect(status.watchedOutcomes["https://shop.example/products/42"] == .init(actual: "stays in the browser", holds: false))
        #expect(status.watchedOutcomes["https://shop.example/old-products/1"] == .init(actual: "opens \(Self.app)", holds: true))
        #expect(status.watchedOutcomes["https://shop.example/help"] == .init(actual: "stays in the browser", holds: true))
        #expect(status.failures == ["\(Self.app) is missing from webcredentials",
                                    "https://shop.example/products/42 stays in the browser (expected: opens \(Self.app))"])
        // Not a usable file: nothing to measure (the findings say why); the monitor stores no results
        // then (DomainStatePipelineTests), and the page shows none.
    }

    @Test func theVerdictSentenceAndTheCardSayWhichExpectationFails() {
        let failure = "https://shop.example/products/42 stays in the browser (expected: opens \(Self.app))"
        let sentence = VerdictSentence.make(state: .passing, findings: [], host: "shop.example", failedExpectations: [failure])
        #expect(!sentence.contains("every expectation holds"))
        #expect(sentence.contains("An expectation fails: \(failure)."))
        #expect(VerdictSentence.make(state: .passing, findings: [], host: "shop.example")
                .contains("every expectation holds"))
        #expect(VerdictSentence.make(state: .passing, findings: [], host: "shop.example", hasExpectations: false)
                == "All good: devices get a valid file for shop.example.")

        let status = ExpectationStatus(missingAppIDs: [], watchedOutcomes: [
            "https://shop.example/products/42": .init(actual: "stays in the browser", holds: false),
            "https://shop.example/old-products/1": .init(actual: "opens \(Self.app)", holds: true),
        ], failures: [failure])
        let m = DomainPageModel(id: 3, host: "shop.example", displayHost: "shop.example", state: .passing, verdictSentence: sentence,
                                lastCheck: 1, appIDs: [(.applinks, Self.app)],
                                watched: [("https://shop.example/products/42", Self.app), ("https://shop.example/old-products/1", Self.app)],
                                expectationStatus: status, now: 100)
        let page = DomainPage.render(m, viewer: viewer).rendered
        #expect(page.contains("<code>https://shop.example/products/42</code> opens \(Self.app) <span class=\"expect-fails\">✗ it stays in the browser</span>"))
        #expect(page.contains("<code>https://shop.example/old-products/1</code> opens \(Self.app) <span class=\"expect-holds\">✓ holds</span>"))
        #expect(page.contains("\(Self.app)</span> <span class=\"expect-holds\">✓ holds</span>"))
    }
}
