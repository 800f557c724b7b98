import Testing
import WebAuthn

/// The browser's decision for one caller (passkeys-spec.md §3.2–3.4, §4 step 3).
@Suite struct RelatedOriginsDecisionTests {
    func decide(rpID: String = "example.com", _ caller: String, _ origins: [String]) throws -> RelatedOriginsDecision {
        try decide(rpID: rpID, caller, bytes: Rules.file(origins))
    }

    func decide(rpID: String = "example.com", _ caller: String, bytes: [UInt8]) throws -> RelatedOriginsDecision {
        let rules = try Rules.real()
        let callerURL = try OriginURL.parse(caller, rules: rules).get()
        return RelatedOriginsDecision.decide(rpID: try RelyingPartyID(rpID, rules: rules), caller: callerURL,
                                             reading: RelatedOriginsReader.read(bytes), rules: rules)
    }

    @Test func theRPIDsOwnSiteNeedsNoFile() throws {
        for caller in ["https://example.com", "https://login.example.com", "https://a.b.example.com:8443"] {
            let decision = try decide(caller, bytes: Array("not even json".utf8))
            #expect(decision.outcome == .coveredByRPID && decision.allowed && decision.labels.isEmpty, "\(caller)")
        }
    }

    @Test func listedOriginIsAllowedWithTheLabelsSoFar() throws {
        let decision = try decide("https://shop.example.de", ["https://example.co.uk", "https://shop.example.de", "https://other.example"])
        #expect(decision.allowed && decision.outcome == .listed)
        #expect(decision.labels == ["example"])
        #expect(decision.entry?.index == 1)
    }

    @Test func pathsUserinfoAndDefaultPortsStillMatch() throws {
        #expect(try decide("https://shop.example", ["https://user@shop.example:443/login?x#y"]).allowed)
        #expect(try decide("https://shop.example/", ["HTTPS://SHOP.EXAMPLE"]).allowed)
        #expect(try decide("https://bücher.de", ["https://xn--bcher-kva.de"]).allowed)
    }

    @Test func otherSchemePortSubdomainTrailingDotAndWildcardDoNotMatch() throws {
        let http = try decide("https://shop.example", ["http://shop.example"])
        #expect(http.outcome == .notListed && http.reason.contains("scheme http"))
        #expect(try decide("https://shop.example", ["https://shop.example:8443"]).outcome == .notListed)
        #expect(try decide("https://www.shop.example", ["https://shop.example"]).outcome == .notListed)
        let dot = try decide("https://shop.example", ["https://shop.example."])
        #expect(dot.outcome == .notListed && dot.reason.contains("trailing dot"))
        let star = try decide("https://a.shop.example", ["https://*.shop.example"])
        #expect(star.outcome == .notListed && star.reason.contains("no wildcard"))
    }

    @Test func originsOfTheSixthLabelAreRefusedTheFirstFiveAllowed() throws {
        let origins = ["a", "b", "c", "d", "e", "f"].map { "https://\($0).example" } + ["https://www.c.example"]
        for allowed in ["https://a.example", "https://e.example", "https://www.c.example"] {
            #expect(try decide(allowed, origins).allowed, "\(allowed)")
        }
        let sixth = try decide("https://f.example", origins)
        #expect(!sixth.allowed && sixth.outcome == .beyondLimit)
        #expect(sixth.labels == ["a", "b", "c", "d", "e"])
        #expect(sixth.entry?.index == 5)
    }

    @Test func httpEntriesSpendLabelsThatPushLaterOriginsOut() throws {
        let origins = ["http://a.example", "http://b.example", "http://c.example", "http://d.example", "http://e.example", "https://f.example"]
        #expect(try decide("https://f.example", origins).outcome == .beyondLimit)
    }

    @Test func privateSuffixSitesEachSpendALabel() throws {
        let origins = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"].map { "https://\($0).github.io" }
        #expect(try decide("https://echo.github.io", origins).allowed)
        #expect(try decide("https://foxtrot.github.io", origins).outcome == .beyondLimit)
    }

    @Test func rejectedFilesAllowNothing() throws {
        let cases: [(String, String)] = [
            ("{\"origins\": [\"https://shop.example\", 7]}", "not a string"),
            ("{\"origins\": \"https://shop.example\"}", "not an array"),
            ("[\"https://shop.example\"]", "not a JSON object"),
            ("{\"Origins\": [\"https://shop.example\"]}", "no \"origins\""),
            ("{\"origins\": [\"https://shop.example\",]}", "strict JSON"),
        ]
        for (text, words) in cases {
            let decision = try decide("https://shop.example", bytes: Array(text.utf8))
            #expect(decision.outcome == .fileRejected && !decision.allowed, "\(text)")
            #expect(decision.reason.contains(words), "\(decision.reason)")
        }
    }

    @Test func emptyListMatchesNothing() throws {
        #expect(try decide("https://shop.example", []).outcome == .notListed)
    }

    @Test func insecureOrIPCallersCannotUseWebAuthn() throws {
        #expect(try decide("http://shop.example", ["http://shop.example"]).outcome == .callerInsecure)
        #expect(try decide("https://192.0.2.1", ["https://192.0.2.1"]).outcome == .callerInsecure)
        #expect(try decide(rpID: "localhost", "http://localhost:3000", []).outcome == .coveredByRPID)
    }
}
