import Foundation
import TestSupport
import Testing

/// `aasa-monitor check RP-ID --passkeys` against the TLS fleet's web scenarios: one exit status per
/// verdict, the related origins with their label count, the JSON shape, and the usage errors.
@Suite(.serialized) struct PasskeysCheckCommandTests {
    @Test func exitStatusPerVerdict() async throws {
        try await TestTLSFleet.with { fleet in
            let flags = CheckCommandTests.flags(fleet)
            let pass = try CheckCommandTests.run(["check", fleet.host("wa-good"), "--passkeys"] + flags)
            #expect(pass.status == 0, "\(pass.stdout)\(pass.stderr)")
            #expect(pass.stdout.hasPrefix("wa-good.fleet.test (web): PASS — browsers read /.well-known/webauthn\n"), "\(pass.stdout)")
            #expect(pass.stdout.contains("\nLabels: 1 of at most 5 (example)\n"), "\(pass.stdout)")
            #expect(pass.stdout.contains("Related origins (3):\n  https://shop.example.com  label example\n"), "\(pass.stdout)")
            #expect(pass.stdout.contains("  enroll: https://wa-good.fleet.test/passkeys/new\n"))
            #expect(pass.stdout.contains("  webauthn: https://wa-good.fleet.test/.well-known/webauthn\n"))

            let warn = try CheckCommandTests.run(["check", fleet.host("wa-sixlabels"), "--passkeys"] + flags)
            #expect(warn.status == 1, "\(warn.stdout)")
            #expect(warn.stdout.contains("webauthn-label-limit") && warn.stdout.contains("\nLabels: 6 of at most 5 (one, two, three, four, five)\n  ignored: six\n"),
                    "\(warn.stdout)")

            let plain = try CheckCommandTests.run(["check", fleet.host("wa-plain"), "--passkeys"] + flags)
            #expect(plain.status == 2, "\(plain.stdout)")
            #expect(plain.stdout.hasPrefix("wa-plain.fleet.test (web): FAIL") && plain.stdout.contains("webauthn-content-type"))

            let insecure = try CheckCommandTests.run(["check", fleet.host("wa-redirecthttp"), "--passkeys", "--json"] + flags)
            #expect(insecure.status == 2, "\(insecure.stdout)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(insecure.stdout.utf8)) as? [String: Any])
            let web = try #require(object["web"] as? [String: Any])
            let codes = (web["findings"] as? [[String: Any]])?.compactMap { $0["code"] as? String } ?? []
            #expect(codes.contains("webauthn-redirect-insecure"))
            #expect(object["exit_status"] as? Int == 2 && object["host"] as? String == "wa-redirecthttp.fleet.test")
            #expect(web["verdict"] as? String == "fail" && web["label_count"] as? Int == 0)
            let facts = web["facts"] as? [[String: Any]] ?? []
            #expect(facts.first?["status"] as? Int == 301)
        }
    }

    @Test func jsonListsRelatedOriginsWithTheirLabels() async throws {
        try await TestTLSFleet.with { fleet in
            let good = try CheckCommandTests.run(["check", fleet.host("wa-good"), "--passkeys", "--json"] + CheckCommandTests.flags(fleet))
            #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(good.stdout.utf8)) as? [String: Any])
            let web = try #require(object["web"] as? [String: Any])
            #expect(web["rp_id"] as? String == "wa-good.fleet.test" && web["label_count"] as? Int == 1)
            #expect(web["labels"] as? [String] == ["example"])
            let origins = (web["related_origins"] as? [[String: Any]])?.compactMap { $0["origin"] as? String }
            #expect(origins == ["https://shop.example.com", "https://www.example.co.uk", "https://brand.example.org"])
            #expect((web["passkey_endpoints"] as? [String: String])?["manage"] == "https://wa-good.fleet.test/passkeys")
        }
    }

    @Test func usageErrors() throws {
        let platform = try CheckCommandTests.run(["check", "example.com", "--passkeys", "--platform", "apple"])
        #expect(platform.status == 64 && platform.stderr.contains("--passkeys checks the web files alone"), "\(platform.stderr)")
        let suffix = try CheckCommandTests.run(["check", "com", "--passkeys"])
        #expect(suffix.status == 64 && suffix.stderr.contains("public suffix"), "\(suffix.stderr)")
        let origin = try CheckCommandTests.run(["check", "https://example.com", "--passkeys"])
        #expect(origin.status == 64 && origin.stderr.contains("an RP ID is a domain, not an origin"), "\(origin.stderr)")
    }

    @Test func refusedAddressCouldNotCheck() throws {
        let outcome = try CheckCommandTests.run(["check", "localhost", "--passkeys"])
        #expect(outcome.status == 3, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("(web): COULD NOT CHECK") && outcome.stdout.contains("fetch-failed"))
    }
}
