import AssetLinks
import Foundation
import Testing
import Vocabulary
@testable import Monitor

/// Watched URLs on Android: what each must do (per platform) and what it does under a file.
@Suite struct AndroidWatchedURLsTests {
    static let shop = "com.example.shop"
    static let other = "com.example.other"
    static let fingerprint = "AA:" + Array(repeating: "11", count: 31).joined(separator: ":")

    /// One handle_all_urls statement per package; `rules` become the first package's dynamic rules.
    static func file(_ rules: String?, packages: [String] = [shop]) throws -> AssetLinksFile {
        let statements = packages.enumerated().map { index, package in
            let extensions = index == 0 ? rules.map {
                #", "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": \#($0)}}"#
            } ?? "" : ""
            return #"{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "\#(package)", "sha256_cert_fingerprints": ["\#(fingerprint)"]}\#(extensions)}"#
        }
        return try #require(AssetLinksReader.read(Array("[\(statements.joined(separator: ", "))]".utf8)).file)
    }

    @Test func eachPlatformGetsItsOwnExpectedOutcome() {
        let domain = [WatchedURL(url: "https://shop.example/p/1", expected: .opensApp("ABCDE12345.com.example.shop")),
                      WatchedURL(url: "https://shop.example/about", expected: .staysInBrowser),
                      WatchedURL(url: "https://shop.example/cart", expected: .opensApp("ABCDE12345.com.example.shop"))]
        let apps = [(package: Self.shop, urls: ["https://shop.example/cart", "https://shop.example/orders"]),
                    (package: Self.other, urls: ["https://shop.example/orders"])]
        #expect(AndroidWatchedURLs.expected(domain: domain, apps: apps) == [
            WatchedURL(url: "https://shop.example/cart", expected: .opensApp(Self.shop)),
            WatchedURL(url: "https://shop.example/orders", expected: .opensApp(Self.shop)),
            WatchedURL(url: "https://shop.example/p/1", expected: .opensApp(Self.shop)),
            WatchedURL(url: "https://shop.example/about", expected: .staysInBrowser),
        ])
        // No Android app expected: a URL that must open an Apple app has nothing to open on Android.
        #expect(AndroidWatchedURLs.expected(domain: domain, apps: []) == [WatchedURL(url: "https://shop.example/about", expected: .staysInBrowser)])
    }

    @Test func androidFifteenFollowsTheDynamicRulesOlderVersionsOpenEveryPath() throws {
        let file = try Self.file(#"[{"/": "/account/*", "exclude": true}, {"/": "/p/*"}]"#)
        let results = AndroidWatchedURLs.evaluate([
            WatchedURL(url: "https://shop.example/p/12", expected: .opensApp(Self.shop)),
            WatchedURL(url: "https://shop.example/account/settings", expected: .opensApp(Self.shop)),
            WatchedURL(url: "https://shop.example/help", expected: .staysInBrowser),
        ], file: file)
        #expect(results.map(\.actual) == [.opensApp(Self.shop), .staysInBrowser, .staysInBrowser])
        #expect(results.map(\.beforeDynamicRules) == [.opensApp(Self.shop), .opensApp(Self.shop), .opensApp(Self.shop)])
        #expect(results.map(\.meetsExpectation) == [true, false, true])
        #expect(results[1].reason.hasPrefix("Rule 1 is the first that matches; it excludes the URL"), "\(results[1].reason)")
    }

    @Test func aURLThatMustStayInTheBrowserFailsWhenAnyVerifiedAppOpensIt() throws {
        let file = try Self.file(#"[{"/": "/p/*"}]"#, packages: [Self.shop, Self.other])
        let result = try #require(AndroidWatchedURLs.evaluate([WatchedURL(url: "https://shop.example/help", expected: .staysInBrowser)],
                                                              file: file).first)
        // The shop's rules keep /help in the browser; the other app has no rules, so it opens every path.
        #expect(result.actual == .opensApp(Self.other) && !result.meetsExpectation)
        #expect(result.reason.contains("no dynamic rules"), "\(result.reason)")
    }

    /// A URL whose Android outcome is stated apart from Apple's gets that outcome, whatever Apple's
    /// (or an app watching it) would give; the others keep the derived one.
    @Test func aStatedAndroidOutcomeWins() {
        let domain = [WatchedURL(url: "https://shop.example/a", expected: .staysInBrowser),
                      WatchedURL(url: "https://shop.example/b", expected: .opensApp("ABCDE12345.com.example.shop")),
                      WatchedURL(url: "https://shop.example/c", expected: .opensApp("ABCDE12345.com.example.shop"))]
        let stated: [String: URLOutcome] = ["https://shop.example/a": .opensApp(Self.other), "https://shop.example/b": .staysInBrowser,
                                            "https://shop.example/cart": .staysInBrowser]
        #expect(AndroidWatchedURLs.expected(domain: domain, apps: [(package: Self.shop, urls: ["https://shop.example/cart"])], stated: stated) == [
            WatchedURL(url: "https://shop.example/cart", expected: .staysInBrowser),
            WatchedURL(url: "https://shop.example/a", expected: .opensApp(Self.other)),
            WatchedURL(url: "https://shop.example/b", expected: .staysInBrowser),
            WatchedURL(url: "https://shop.example/c", expected: .opensApp(Self.shop)),
        ])
        // Without an expected package, a URL that must open Apple's app is not judged on Android — unless stated.
        #expect(AndroidWatchedURLs.expected(domain: domain, apps: [], stated: stated).map(\.url) == ["https://shop.example/a", "https://shop.example/b"])
    }

    /// A package with expected keys opens a URL only through a statement listing one of them: what
    /// the app's own builds see (and what the app page shows, from this stored judgement).
    @Test func aPackageWithKnownKeysOpensOnlyThroughThem() throws {
        let url = [WatchedURL(url: "https://shop.example/p/1", expected: .opensApp(Self.shop))]
        let file = try Self.file(nil)
        let rotated = "CC:" + Array(repeating: "33", count: 31).joined(separator: ":")
        #expect(AndroidWatchedURLs.evaluate(url, file: file).map(\.actual) == [.opensApp(Self.shop)], "no keys known: any key")
        #expect(AndroidWatchedURLs.evaluate(url, file: file, keys: [Self.shop: [Self.fingerprint]]).map(\.actual) == [.opensApp(Self.shop)])
        let other = AndroidWatchedURLs.evaluate(url, file: file, keys: [Self.shop: [rotated]])
        #expect(other.map(\.actual) == [.staysInBrowser] && other.map(\.beforeDynamicRules) == [.staysInBrowser])
        // The app-signing key first, then the others: any listed key opens it.
        #expect(AndroidWatchedURLs.evaluate(url, file: file, keys: [Self.shop: [rotated, Self.fingerprint]]).map(\.actual) == [.opensApp(Self.shop)])
    }

    @Test func noFileOpensNothing() {
        let result = AndroidWatchedURLs.evaluate([WatchedURL(url: "https://shop.example/p/1", expected: .opensApp(Self.shop))], file: nil)
        #expect(result.map(\.actual) == [.staysInBrowser] && result.map(\.beforeDynamicRules) == [.staysInBrowser])
    }

    /// Results stored before watched URLs were judged on Android are given `"watchedURLs": []` by
    /// migration 0037 (TypedHistoryTests.androidRowsWrittenByMainReadBackUnchanged reads one back);
    /// the synthesized decoder itself guesses no default, so a shape no migration covered is an error.
    @Test func resultsStoredBeforeWatchedURLsWereJudgedReadOnceMigrated() throws {
        let old = #"{"verdict":"pass","serves":true,"findings":[],"identities":[]}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(AndroidResult.self, from: Data(old.utf8)) }
        let migrated = #"{"verdict":"pass","serves":true,"findings":[],"identities":[],"watchedURLs":[]}"#
        let decoded = try JSONDecoder().decode(AndroidResult.self, from: Data(migrated.utf8))
        #expect(decoded.watchedURLs.isEmpty && decoded.serves)
    }
}
