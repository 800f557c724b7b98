import AssetLinks
import Testing

@Suite struct DiffTests {
    static let fp = SpecExampleTests.fingerprint
    static let fp2 = "AA:" + fp.dropFirst(3)

    static func file(_ text: String) throws -> AssetLinksFile {
        try #require(AssetLinksReader.read(Array(text.utf8)).file)
    }

    @Test func sameBehaviourDespiteOtherBytes() throws {
        let a = try Self.file(FindingCodeTests.rules(#"[{"/": "/a/*"}, {"/": "*", "exclude": true}]"#))
        let b = try Self.file("  " + FindingCodeTests.rules(#"[{"/":"/a/*"},{"exclude":true,"/":"*"}]"#) + "\n")
        let diff = AssetLinksDiff.diff(old: a, new: b, urls: ["https://h.example/a/1"])
        #expect(diff.isBehaviourallyEqual)
        #expect(diff.description == "No change in behaviour.\n")
    }

    @Test func packagesFingerprintsAndRelations() throws {
        let old = try Self.file("[" + FindingCodeTests.app("com.a.one").dropFirst().dropLast() + ", "
            + FindingCodeTests.app("com.a.two", relation: "\"delegate_permission/common.handle_all_urls\", \"delegate_permission/common.get_login_creds\"").dropFirst().dropLast() + "]")
        let new = try Self.file("[" + FindingCodeTests.app("com.a.two", fingerprints: "[\"\(Self.fp)\", \"\(Self.fp2)\"]").dropFirst().dropLast() + "]")
        let diff = AssetLinksDiff.diff(old: old, new: new)
        #expect(diff.packagesRemoved == ["com.a.one"] && diff.packagesAdded == [])
        #expect(diff.fingerprintsAdded == [.init(packageName: "com.a.two", fingerprint: Self.fp2)])
        #expect(diff.fingerprintsRemoved == [.init(packageName: "com.a.one", fingerprint: Self.fp)])
        #expect(diff.grantsRemoved.map(\.relation) == ["delegate_permission/common.get_login_creds", "delegate_permission/common.handle_all_urls"])
        #expect(diff.grantsRemoved.map(\.target) == ["com.a.two", "com.a.one"])
        #expect(diff.description.contains("- package com.a.one"))
    }

    @Test func rulesAddedRemovedMovedAndURLsThatFlip() throws {
        let old = try Self.file(FindingCodeTests.rules(#"[{"/": "/a/*", "exclude": true}, {"/": "/b"}, {"/": "*"}]"#))
        let new = try Self.file(FindingCodeTests.rules(#"[{"/": "/b"}, {"/": "/a/*", "exclude": true}, {"/": "/c"}]"#))
        let diff = AssetLinksDiff.diff(old: old, new: new, urls: ["https://h.example/a/1", "https://h.example/z", "https://h.example/b"])
        let rules = try #require(diff.dynamicRules.first)
        #expect(rules.added == [#"{"/": "/c"}"#] && rules.removed == [#"{"/": "*"}"#])
        #expect(rules.moved.count == 1 && rules.before == "valid" && rules.after == "valid")
        #expect(diff.urls.map(\.url) == ["https://h.example/z"])   // /a/1 and /b keep their outcome under other rules
        #expect(diff.urls.first.map { ($0.before, $0.after) } ?? ("", "") == ("match", "no_match"))
    }

    @Test func rulesBecomingInvalidIsReported() throws {
        let old = try Self.file(FindingCodeTests.rules(#"[{"/": "/a"}]"#))
        let new = try Self.file(FindingCodeTests.rules(#"[{"/": "/a", "exclude": "yes"}]"#))
        let diff = AssetLinksDiff.diff(old: old, new: new, urls: ["https://h.example/b"])
        #expect(diff.dynamicRules.first.map { ($0.before, $0.after) } ?? ("", "") == ("valid", "dropped"))
        #expect(diff.urls.first?.after == "rules_dropped")
    }
}
