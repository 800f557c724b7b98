@testable import AssetLinks
import Testing
import Vocabulary

/// robots.txt read as Google reads it, and the two findings of a check's extra reads.
@Suite struct RobotsRulesTests {
    static let file = AndroidCheckEvaluation.filePath

    @Test func groupsLongestMatchAndAllowOnTies() {
        let rules = RobotsRules(Array("""
            # comments and unknown fields are ignored
            Sitemap: https://example.com/sitemap.xml
            User-agent: *
            Disallow: /.well-known/
            Allow: /.well-known/assetlinks.json

            User-agent: Googlebot
            User-agent: bingbot
            Disallow: /.well-known
            Allow: /.well-known/
            """.utf8))
        // `*`: the longer Allow wins.
        #expect(rules.allows(Self.file, agent: "*"))
        // Googlebot obeys only its own group (case-insensitive): equal length → Allow.
        #expect(rules.decidingRule(for: Self.file, agent: "Googlebot") == RobotsRules.Rule(allow: true, pattern: "/.well-known/"))
        #expect(!rules.allows("/.well-knownx", agent: "googlebot"))
        // A crawler no group names obeys `*`.
        #expect(!rules.allows("/.well-known/other.json", agent: "otherbot"))
    }

    @Test func wildcardsAnchorsAndEmptyRules() {
        #expect(!RobotsRules(Array("User-agent: *\nDisallow: /*.json$\n".utf8)).allows(Self.file, agent: "googlebot"))
        #expect(RobotsRules(Array("User-agent: *\nDisallow: /*.json$\n".utf8)).allows(Self.file + "x", agent: "googlebot"))
        #expect(!RobotsRules(Array("User-agent: *\nDisallow: /*/assetlinks\n".utf8)).allows(Self.file, agent: "*"))
        #expect(RobotsRules(Array("User-agent: *\nDisallow:\n".utf8)).allows(Self.file, agent: "*"), "an empty Disallow allows all")
        #expect(RobotsRules(Array("Disallow: /\n".utf8)).allows(Self.file, agent: "*"), "a rule outside any group is ignored")
        #expect(RobotsRules([]).allows(Self.file, agent: "googlebot"))
        #expect(!RobotsRules(Array("user-agent: *\r\ndisallow: /\r\n".utf8)).allows(Self.file, agent: "googlebot"))
        // A hostile pattern stays cheap: pattern × path steps at most.
        let hostile = "User-agent: *\nDisallow: /" + String(repeating: "*a", count: 5_000) + "$\n"
        #expect(RobotsRules(Array(hostile.utf8)).allows(Self.file, agent: "*"))
    }

    /// Found by the robots-rules fuzz target (its reference reads bytes as Google's parser does; the
    /// reproducer is Fuzz/RobotsRulesFuzz/seeds/crash-agent-with-version.txt): a User-agent value names
    /// the product token it starts with, so "Googlebot /p" or "Googlebot/2.1" is Googlebot's group.
    /// Also read as Google reads bytes: a byte-order mark, lines ended by CR alone, and other Unicode
    /// line breaks that end no line.
    @Test func userAgentsNameTheirProductTokenAndLinesAreGooglesLines() {
        let versioned = RobotsRules(Array("User-agent: *\nAllow: /\n\nUser-agent: Googlebot/2.1 (+http://www.google.com/bot.html)\nDisallow: /.well-known/\n".utf8))
        #expect(!versioned.allows(Self.file, agent: "googlebot") && versioned.namesAgent("googlebot"))
        #expect(versioned.allows(Self.file, agent: "otherbot"))
        let spaced = RobotsRules(Array("User-agent: Googlebot /p\nDisallow: /\n".utf8))
        #expect(!spaced.allows(Self.file, agent: "googlebot"))
        // `*` names every crawler only alone or before a space; "*bot" names none.
        #expect(!RobotsRules(Array("User-agent: * # everyone\nDisallow: /\n".utf8)).allows(Self.file, agent: "otherbot"))
        #expect(RobotsRules(Array("User-agent: *bot\nDisallow: /\n".utf8)).allows(Self.file, agent: "otherbot"))
        // A UTF-8 byte-order mark before the first line (editors on Windows write one) is skipped.
        #expect(!RobotsRules([0xEF, 0xBB, 0xBF] + Array("User-agent: *\nDisallow: /\n".utf8)).allows(Self.file, agent: "googlebot"))
        // CR alone ends a line; a vertical tab, form feed or U+2028 does not (Google reads one line).
        #expect(!RobotsRules(Array("User-agent: *\rDisallow: /\r".utf8)).allows(Self.file, agent: "googlebot"))
        for separator in ["\u{0B}", "\u{0C}", "\u{2028}", "\u{85}"] {
            #expect(RobotsRules(Array("User-agent: *\(separator)Disallow: /\n".utf8)).allows(Self.file, agent: "googlebot"), "\(separator.unicodeScalars.first?.value ?? 0)")
        }
        // A combining mark after the colon is part of the value, not a reason to skip the line: the
        // rule ends agent a's group, so b's Disallow is not a's.
        let combining = RobotsRules(Array("User-agent: a\nDisallow:\u{301}x\nUser-agent: b\nDisallow: /\n".utf8))
        #expect(combining.allows(Self.file, agent: "a") && !combining.allows(Self.file, agent: "b"))
    }

    static func facts(_ url: String, status: Int?, body: String = "", failure: FetchFailure? = nil) -> TransportFacts {
        TransportFacts(location: .wellKnown, url: url, status: status, headers: ["content-type": "application/json"],
                       body: Array(body.utf8), failure: failure)
    }

    static let good = #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.shop", "sha256_cert_fingerprints": ["\#(SpecExampleTests.fingerprint)"]}}]"#

    @Test func robotsThatKeepGoogleOutAreAWarningOthersNothing() {
        let origin = Self.facts("https://shop.example/.well-known/assetlinks.json", status: 200, body: Self.good)
        func codes(_ robots: TransportFacts) -> [String] {
            AndroidCheckEvaluation.evaluate(AndroidCheckFacts(origin: origin, robots: robots)).findings.map(\.code)
        }
        let blocking = Self.facts("https://shop.example/robots.txt", status: 200, body: "User-agent: Googlebot\nDisallow: /.well\n")
        let report = AndroidCheckEvaluation.evaluate(AndroidCheckFacts(origin: origin, robots: blocking))
        let finding = report.findings.first { $0.code == "robots-disallow" }
        #expect(finding?.severity == .warning && report.verdict != .fail)
        #expect(finding?.message == #"https://shop.example/robots.txt disallows /.well-known/assetlinks.json for Googlebot with "Disallow: /.well"; Google's crawlers may not read https://shop.example/.well-known/assetlinks.json."#)
        #expect(!codes(Self.facts("https://shop.example/robots.txt", status: 200, body: "User-agent: *\nDisallow: /admin\n")).contains("robots-disallow"))
        // No robots.txt (404), or one Google would retry (503): no rules read here.
        #expect(!codes(Self.facts("https://shop.example/robots.txt", status: 404, body: "User-agent: *\nDisallow: /\n")).contains("robots-disallow"))
        #expect(!codes(Self.facts("https://shop.example/robots.txt", status: 503, body: "User-agent: *\nDisallow: /\n")).contains("robots-disallow"))
    }

    @Test func theFullyQualifiedFormMustServeTheSameFile() {
        let origin = Self.facts("https://shop.example/.well-known/assetlinks.json", status: 200, body: Self.good)
        func finding(_ dotted: TransportFacts) -> Finding? {
            AndroidCheckEvaluation.evaluate(AndroidCheckFacts(origin: origin, trailingDot: dotted)).findings.first { $0.code == "trailing-dot-mismatch" }
        }
        let url = "https://shop.example./.well-known/assetlinks.json"
        #expect(finding(Self.facts(url, status: 200, body: Self.good)) == nil)
        let missing = finding(Self.facts(url, status: 404))
        #expect(missing?.severity == .warning)
        #expect(missing?.message == "https://shop.example./.well-known/assetlinks.json (the fully-qualified form of the host) answers HTTP 404, while https://shop.example/.well-known/assetlinks.json answers HTTP 200.")
        #expect(finding(Self.facts(url, status: 200, body: "[]"))?.message.contains("answers another file") == true)
        #expect(finding(Self.facts(url, status: nil, failure: FetchFailure(kind: .reset, message: "reset"))) != nil)
    }
}
