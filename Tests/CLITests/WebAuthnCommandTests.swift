import Foundation
import Testing

/// `validate` and `match --related-origins` for the web's passkey files (passkeys-spec.md §3, §6.1),
/// run through the real binary: output shapes and exit statuses are an API for CI jobs.
@Suite struct WebAuthnCommandTests {
    static let sixLabels = #"{"origins": ["https://a.example", "https://b.example", "https://c.example", "https://d.example", "https://e.example", "https://f.example"]}"#

    @Test func validateKnowsTheFileByNameAndItsExitStatusFollowsTheWorstFinding() throws {
        let dir = try ScratchDirectory()
        let clean = try dir.write("webauthn", #"{"origins": ["https://shop.example"]}"#)
        let outcome = try BuiltCommand.run(["validate", clean])
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "\(clean): no findings\n\nBrowsers keep 1 of at most 5 labels: shop.\nOrigins a browser can match (1):\n  https://shop.example\n")
        let limited = try dir.write("webauthn.json", Self.sixLabels)
        let warned = try BuiltCommand.run(["validate", limited])
        #expect(warned.status == 1)
        #expect(warned.stdout.contains("  webauthn-label-limit  /origins (line 1:13)\n"), "\(warned.stdout)")
        let broken = try dir.write("webauthn-copy", #"{"origins": "https://shop.example"}"#)
        let rejected = try BuiltCommand.run(["validate", "--platform", "web", broken])
        #expect(rejected.status == 2)
        #expect(rejected.stdout.contains("webauthn-origins-not-array"))
        #expect(rejected.stdout.hasSuffix("Browsers reject this file: \"origins\" is not an array.\n"))
    }

    @Test func validateRecognisesTheFileByContentToo() throws {
        let outcome = try BuiltCommand.run(["validate", "-"], stdin: Array(#"{"origins": ["http://shop.example"]}"#.utf8))
        #expect(outcome.status == 2)
        #expect(outcome.stdout.contains("webauthn-no-usable-origin"))
        // An apple-app-site-association stays Apple's even with a stray origins member.
        let apple = try BuiltCommand.run(["validate", "-"], stdin: Array(#"{"webcredentials": {"apps": ["ABCDE12345.com.example.app"]}, "origins": []}"#.utf8))
        #expect(!apple.stdout.contains("webauthn-"))
    }

    @Test func validateJSONHasTheFindingsLabelsAndSummary() throws {
        let outcome = try BuiltCommand.run(["validate", "--platform", "web", "--json", "--rp-id", "example.com", "-"],
                                           stdin: Array(#"{"origins": ["https://login.example.com", "https://shop.example/"]}"#.utf8))
        #expect(outcome.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["findings", "rejection", "labels", "ignored_labels", "usable_origins", "summary"])
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.map { $0["code"] as? String } == ["webauthn-origin-is-rp", "webauthn-origin-trailing-slash"])
        for finding in findings { #expect(Set(finding.keys) == ["code", "severity", "location", "message", "hint", "affects"]) }
        #expect(object["labels"] as? [String] == ["example", "shop"])
        #expect(object["usable_origins"] as? [String] == ["https://login.example.com", "https://shop.example"])
        let summary = try #require(object["summary"] as? [String: Any])
        #expect(summary["exit_status"] as? Int == 0 && summary["infos"] as? Int == 2)
    }

    @Test func rpIDIsRefusedForTheOtherPlatformsFiles() throws {
        let outcome = try BuiltCommand.run(["validate", "--rp-id", "example.com", "-"], stdin: Array(#"[{"relation": [], "target": {}}]"#.utf8))
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("--rp-id goes with the web's passkey files"), "\(outcome.stderr)")
    }

    @Test func validatePasskeyEndpointsByName() throws {
        let dir = try ScratchDirectory()
        let path = try dir.write("passkey-endpoints", #"{"enroll": "https://example.com/passkeys/new", "manage": 7}"#)
        let outcome = try BuiltCommand.run(["validate", "--json", path])
        #expect(outcome.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.map { $0["code"] as? String } == ["passkey-endpoints-url-invalid"])
        #expect(object["endpoints"] as? [String: String] == ["enroll": "https://example.com/passkeys/new"])
    }

    @Test func matchRelatedOriginsAnswersAllowedReasonAndLabels() throws {
        let dir = try ScratchDirectory()
        let path = try dir.write("webauthn", Self.sixLabels)
        let fifth = try BuiltCommand.run(["match", "--related-origins", path, "--rp-id", "example.com", "--origin", "https://e.example", "--json"])
        #expect(fifth.status == 0)
        #expect(fifth.stdout == #"""
            {
              "allowed" : true,
              "entry" : "/origins/4",
              "labels" : [
                "a",
                "b",
                "c",
                "d",
                "e"
              ],
              "origin" : "https://e.example",
              "outcome" : "listed",
              "reason" : "https://e.example is listed at /origins/4 (label \"e\", fifth of at most 5), so browsers with Related Origin Requests let it use the RP ID example.com.",
              "rp_id" : "example.com"
            }

            """#)
        let sixth = try BuiltCommand.run(["match", "--related-origins", path, "--rp-id", "example.com", "--origin", "https://f.example", "--json"])
        #expect(sixth.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(sixth.stdout.utf8)) as? [String: Any])
        #expect(object["allowed"] as? Bool == false)
        #expect(object["outcome"] as? String == "beyond-limit")
        #expect((object["reason"] as? String)?.contains("limit of 5 labels") == true)
        let unlisted = try BuiltCommand.run(["match", "--related-origins", path, "--rp-id", "example.com", "--origin", "https://g.example"])
        #expect(unlisted.status == 1)
        #expect(unlisted.stdout.hasPrefix("not allowed: https://g.example is not among the origins"))
        let own = try BuiltCommand.run(["match", "--related-origins", path, "--rp-id", "example.com", "--origin", "https://www.example.com"])
        #expect(own.status == 0 && own.stdout.contains("directly"))
    }

    @Test func diffReportsASixthLabelAndTheOriginItPushesOut() throws {
        let dir = try ScratchDirectory()
        let five = (["a", "b", "c", "d", "e"].map { "\"https://\($0).example\"" }).joined(separator: ", ")
        let old = try dir.write("old-webauthn", "{\"origins\": [\(five)]}")
        let new = try dir.write("webauthn", "{\"origins\": [\"https://new.example\", \(five)]}")
        let outcome = try BuiltCommand.run(["diff", old, new])
        #expect(outcome.status == 1)
        #expect(outcome.stdout == """
            Label count now 6 (was 5): origins past the fifth label stop working in Chromium.
            Origin https://e.example no longer related: still listed, but past the fifth label.
            Origin https://new.example now related.

            """)
        let same = try BuiltCommand.run(["diff", "--json", old, old])
        #expect(same.status == 0)
        #expect(same.stdout.contains("\"behaviourally_equal\" : true"))
        let apple = try dir.write("apple-app-site-association", #"{"webcredentials": {"apps": ["ABCDE12345.com.example.app"]}}"#)
        #expect(try BuiltCommand.run(["diff", apple, new]).status == 64)
    }

    @Test func matchRelatedOriginsExitCodesForRejectedFilesAndBadUsage() throws {
        let rejected = try BuiltCommand.run(["match", "--related-origins", "-", "--rp-id", "example.com", "--origin", "https://shop.example", "--json"],
                                            stdin: Array(#"{"origins": ["https://shop.example", 1]}"#.utf8))
        #expect(rejected.status == 2)
        #expect(rejected.stdout.contains("\"outcome\" : \"file-rejected\""))
        let incomplete = try BuiltCommand.run(["match", "--related-origins", "webauthn", "--rp-id", "example.com"])
        #expect(incomplete.status == 64)
        let origin = try BuiltCommand.run(["match", "--related-origins", "-", "--rp-id", "https://example.com", "--origin", "https://shop.example"])
        #expect(origin.status == 64)
        #expect(origin.stderr.contains("drop the scheme"), "\(origin.stderr)")
        let suffix = try BuiltCommand.run(["match", "--related-origins", "-", "--rp-id", "github.io", "--origin", "https://shop.example"])
        #expect(suffix.status == 64)
        let notURL = try BuiltCommand.run(["match", "--related-origins", "-", "--rp-id", "example.com", "--origin", "shop.example"])
        #expect(notURL.status == 64)
        let mixed = try BuiltCommand.run(["match", "file", "https://example.com/", "--related-origins", "-", "--rp-id", "example.com", "--origin", "https://a.example"])
        #expect(mixed.status == 64)
    }
}
