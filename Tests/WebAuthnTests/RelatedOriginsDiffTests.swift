import Testing
import WebAuthn

/// What a new version of the file changes for browsers (issue #33's behavioural diff).
@Suite struct RelatedOriginsDiffTests {
    func diff(_ old: [String], _ new: [String]) throws -> RelatedOriginsDiff {
        let rules = try Rules.real()
        return RelatedOriginsDiff.diff(old: RelatedOriginsValidator.validate(Rules.file(old), rules: rules),
                                       new: RelatedOriginsValidator.validate(Rules.file(new), rules: rules))
    }

    @Test func reorderingAndNeverMatchingEntriesChangeNothing() throws {
        let diff = try diff(["https://a.example", "https://b.example"], ["https://b.example/", "https://a.example", "https://*.a.example"])
        #expect(diff.isBehaviourallyEqual && diff.lines.isEmpty)
    }

    @Test func removedAndAddedOrigins() throws {
        let diff = try diff(["https://a.example", "https://b.example"], ["https://a.example", "https://c.example"])
        #expect(diff.lines == ["Origin https://b.example no longer related.", "Origin https://c.example now related."])
    }

    @Test func aSixthLabelAddedFirstPushesTheLastOriginOut() throws {
        let five = ["a", "b", "c", "d", "e"].map { "https://\($0).example" }
        let diff = try diff(five, ["https://new.example"] + five)
        #expect(diff.lines == [
            "Label count now 6 (was 5): origins past the fifth label stop working in Chromium.",
            "Origin https://e.example no longer related: still listed, but past the fifth label.",
            "Origin https://new.example now related.",
        ])
        #expect(!diff.isBehaviourallyEqual)
    }

    @Test func aFileBrowsersRejectUnrelatesEverything() throws {
        let rules = try Rules.real()
        let diff = RelatedOriginsDiff.diff(old: RelatedOriginsValidator.validate(Rules.file(["https://a.example"]), rules: rules),
                                           new: RelatedOriginsValidator.validate(Array("{\"origins\": [\"https://a.example\", null]}".utf8), rules: rules))
        #expect(diff.lines == ["Browsers now reject the file (element 1 of \"origins\" is not a string): no related origin may use the RP ID.",
                               "Origin https://a.example no longer related."])
        #expect(diff.pushedPastLimit.isEmpty)
    }
}
