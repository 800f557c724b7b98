import Testing
import Vocabulary
import WebAuthn

/// Counting registrable origin labels (passkeys-spec.md §3.3) on the real Public Suffix List.
@Suite struct LabelWalkTests {
    func walk(_ origins: [String]) throws -> LabelWalk {
        let rules = try Rules.real()
        let entries = origins.enumerated().map { OriginEntry(index: $0.offset, text: $0.element, location: SourceLocation(pointer: "/origins/\($0.offset)")) }
        return LabelWalk(entries.map { RelatedOrigin($0, rules: rules) })
    }

    @Test func oneLabelAcrossSuffixes() throws {
        #expect(try walk(["https://example.com", "https://www.example.de", "https://shop.example.co.uk"]).window == ["example"])
        #expect(try walk(["https://a.com", "https://a.net"]).window == ["a"])
    }

    @Test func privateSectionSuffixesGiveEachSiteItsOwnLabel() throws {
        // github.io and blogspot.com are PRIVATE-section suffixes: naive eTLD+1 over ICANN rules would say one label.
        let pages = try walk(["https://alpha.github.io", "https://bravo.github.io", "https://charlie.github.io",
                              "https://delta.github.io", "https://echo.github.io"])
        #expect(pages.window == ["alpha", "bravo", "charlie", "delta", "echo"])
        #expect(try walk(["https://shopping.github.io"]).window == ["shopping"])
        #expect(try walk(["https://news.example.blogspot.com"]).window == ["example"])
        #expect(try walk(["https://preview-1.vercel.app", "https://preview-2.vercel.app"]).window == ["preview-1", "preview-2"])
    }

    @Test func wildcardAndExceptionRules() throws {
        // *.ck with !www.ck: a.b.ck's registrable domain is a.b.ck, www.ck's is www.ck.
        #expect(try walk(["https://a.b.ck", "https://www.ck"]).window == ["a", "www"])
    }

    @Test func internationalisedHostsCountInPunycode() throws {
        #expect(try walk(["https://bücher.de", "https://xn--bcher-kva.com"]).window == ["xn--bcher-kva"])
    }

    @Test func entriesWithoutARegistrableDomainSpendNoLabel() throws {
        let skipped = try walk(["https://github.io", "https://co.uk", "https://localhost", "https://192.168.1.1", "https://[::1]",
                                "example.co.uk", "android:apk-key-hash:abc", "other://a.com"])
        #expect(skipped.window.isEmpty)
        #expect(skipped.statuses.allSatisfy { $0 == .skipped })
    }

    @Test func httpEntriesWildcardsPortsAndPathsSpendLabels() throws {
        let spent = try walk(["http://a.example", "https://*.b.example", "https://c.example:8443", "https://user@d.example/path"])
        #expect(spent.window == ["a", "b", "c", "d"])
    }

    @Test func sixthLabelIsIgnoredAndHeldLabelsStillCount() throws {
        let labels = ["a", "b", "c", "d", "e", "f"]
        let walk = try walk(labels.map { "https://\($0).example" } + ["https://www.a.example"])
        #expect(walk.window == ["a", "b", "c", "d", "e"])
        #expect(walk.allLabels == labels)
        #expect(walk.statuses[5] == .beyondLimit(label: "f"))
        // A label already held is evaluated even after the window is full.
        #expect(walk.statuses[6] == .counted(label: "a", new: false))
        #expect(walk.ignored.map(\.entry.text) == ["https://f.example"])
    }

    @Test func duplicatesSpendTheirLabelOnce() throws {
        let walk = try walk(["https://a.example", "https://a.example", "https://a.example/", "https://b.example"])
        #expect(walk.window == ["a", "b"])
    }
}
