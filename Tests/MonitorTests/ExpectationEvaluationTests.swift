import Vocabulary
import Foundation
import AASA
import Testing
@testable import Monitor

@Suite struct ExpectationEvaluationTests {
    let document = AASADocument(
        applinks: AppLinks(details: [
            DetailEntry(appIDs: ["T1.app.one", "T1.app.two"], rules: [], rulesSource: .components,
                        location: SourceLocation(pointer: "/applinks/details/0")),
            DetailEntry(appIDs: ["T2.app.three"], rules: [], rulesSource: .components,
                        location: SourceLocation(pointer: "/applinks/details/1")),
        ]),
        appServices: ["webcredentials": AppsService(apps: ["T1.app.one"], location: SourceLocation(pointer: "/webcredentials"))])

    @Test func presentAppIDsPerService() {
        let present = ExpectationEvaluation.presentAppIDs(in: document)
        #expect(present[.applinks] == ["T1.app.one", "T1.app.two", "T2.app.three"])
        #expect(present[.webcredentials] == ["T1.app.one"])
        #expect(present[.appclips] == [])
        #expect(present[.activitycontinuation] == [])
    }

    @Test(arguments: [
        ([Service.applinks: ["T1.app.one"]], [Service: [String]]()),
        ([.applinks: ["T9.gone"]], [.applinks: ["T9.gone"]]),
        ([.webcredentials: ["T1.app.two"]], [.webcredentials: ["T1.app.two"]]),   // in applinks, not in webcredentials
        ([.appclips: ["T1.app.one.Clip", "T1.app.one.Clip"]], [.appclips: ["T1.app.one.Clip"]]),  // duplicates once
        ([.applinks: ["T2.app.three", "T0.a"], .webcredentials: ["T1.app.one"]], [.applinks: ["T0.a"]]),
    ])
    func missingAppIDs(required: [Service: [String]], missing: [Service: [String]]) {
        let result = ExpectationEvaluation.evaluate(Expectations(appIDs: required), document: document) { _ in .staysInBrowser }
        #expect(result.missingAppIDs == missing)
    }

    @Test func noDocumentMissesEverythingAndOpensNothing() {
        let expectations = Expectations(appIDs: [.applinks: ["T1.app.one"]],
                                        watchedURLs: [WatchedURL(url: "https://e.example/a", expected: .opensApp("T1.app.one"))])
        let result = ExpectationEvaluation.evaluate(expectations, document: nil) { _ in .opensApp("T1.app.one") }
        #expect(result.missingAppIDs == [.applinks: ["T1.app.one"]])
        #expect(result.watchedURLs.map(\.actual) == [.staysInBrowser])
    }

    @Test func watchedURLsUseTheMatchersAnswer() {
        let expectations = Expectations(watchedURLs: [
            WatchedURL(url: "https://e.example/open", expected: .opensApp("T1.app.one")),
            WatchedURL(url: "https://e.example/help", expected: .staysInBrowser),
            WatchedURL(url: "https://e.example/other", expected: .opensApp("T1.app.one")),
        ])
        let result = ExpectationEvaluation.evaluate(expectations, document: document) { url in
            url.hasSuffix("/open") ? .opensApp("T1.app.one") : url.hasSuffix("/other") ? .opensApp("T2.app.three") : .staysInBrowser
        }
        #expect(result.watchedURLs.map(\.meetsExpectation) == [true, true, false])
        #expect(result.watchedURLs[2].actual == .opensApp("T2.app.three"))
    }

    @Test func resultsRoundTripThroughJSON() throws {
        let results = ExpectationResults(missingAppIDs: [.appclips: ["A.b"]],
                                         watchedURLs: [WatchedURLResult(url: "u", expected: .staysInBrowser, actual: .opensApp("X.y"))])
        let data = try JSONEncoder().encode(results)
        // Service names are object keys, not an alternating array, so SQL can read them too.
        #expect(String(decoding: data, as: UTF8.self).contains("\"appclips\":[\"A.b\"]"))
        #expect(try JSONDecoder().decode(ExpectationResults.self, from: data) == results)
    }
}

@Suite struct WatchedURLMatcherTests {
    @Test func theMatcherDecidesWatchedURLs() {
        let document = AASADocument(applinks: AppLinks(details: [
            DetailEntry(appIDs: ["ABCDE12345.shop"], rules: [
                Rule(settings: RuleSettings(path: "/help/*", exclude: true), location: SourceLocation(pointer: "/a/0")),
                Rule(settings: RuleSettings(path: "/*"), location: SourceLocation(pointer: "/a/1")),
            ], rulesSource: .components, location: SourceLocation(pointer: "/applinks/details/0")),
        ]))
        let expectations = Expectations(watchedURLs: [
            WatchedURL(url: "https://e.example/buy/1", expected: .opensApp("ABCDE12345.shop")),
            WatchedURL(url: "https://e.example/help/faq", expected: .staysInBrowser),
            WatchedURL(url: "https://e.example/help/x", expected: .opensApp("ABCDE12345.shop")),
        ])
        let results = ExpectationEvaluation.evaluate(expectations, document: document)
        #expect(results.watchedURLs.map(\.actual) == [.opensApp("ABCDE12345.shop"), .staysInBrowser, .staysInBrowser])
        #expect(results.watchedURLs.map(\.meetsExpectation) == [true, true, false])
    }
}
