import Testing
import WebAuthn

/// Entries parsed as the URL Standard does (passkeys-spec.md §3.2.1–3.2.4).
@Suite struct OriginURLTests {
    func parse(_ text: String) throws -> OriginURL {
        switch OriginURL.parse(text, rules: try Rules.real()) {
        case .success(let url): return url
        case .failure(let failure): Issue.record("\(text): \(failure.reason)"); throw failure
        }
    }

    func fails(_ text: String) throws -> Bool {
        if case .failure = OriginURL.parse(text, rules: try Rules.real()) { return true }
        return false
    }

    @Test func plainHTTPSOrigin() throws {
        let url = try parse("https://shop.example")
        #expect(url.origin?.description == "https://shop.example")
        #expect(url.changes.isEmpty && url.path.isEmpty && !url.hasUserinfo && url.port == nil)
    }

    @Test func trimsAndLowerCasesAndConvertsUnicodeHosts() throws {
        let url = try parse("  HTTPS://Bücher.DE \n")
        #expect(url.origin?.description == "https://xn--bcher-kva.de")
        #expect(url.changes == [.trimmed, .lowerCased, .punycoded])
        #expect(try parse("https://SHOP.example").changes == [.lowerCased])
    }

    @Test func defaultPortIsDroppedOtherPortsKept() throws {
        let written = try parse("https://shop.example:443")
        #expect(written.port == nil && written.defaultPortWritten)
        #expect(written.origin == (try parse("https://shop.example")).origin)
        let other = try parse("https://shop.example:8443")
        #expect(other.port == 8443 && other.origin?.description == "https://shop.example:8443")
        #expect(try parse("http://shop.example:80").defaultPortWritten)
        #expect(try parse("https://shop.example:").port == nil)
    }

    @Test func portsOutOfRangeOrNotNumbersFail() throws {
        #expect(try fails("https://shop.example:65536"))
        #expect(try fails("https://shop.example:99999999999999999999"))
        #expect(try fails("https://shop.example:44a"))
        #expect(try parse("https://shop.example:65535").port == 65535)
    }

    @Test func pathQueryFragmentAndUserinfoAreKeptApartFromTheOrigin() throws {
        let url = try parse("https://user:pw@shop.example/login?next=1#top")
        #expect(url.hasUserinfo && url.path == "/login" && url.query == "next=1" && url.fragment == "top")
        #expect(url.origin?.description == "https://shop.example")
        #expect(try parse("https://shop.example/").path == "/")
    }

    @Test func unparseableEntries() throws {
        // §3.2.2: no scheme, scheme-relative, no host, port above 65535.
        for text in ["example.co.uk", "//example.co.uk", "https://", "https://a.example:70000", "https://exa mple.com", "https://[::1"] {
            #expect(try fails(text), "\(text)")
        }
    }

    @Test func wildcardIsALiteralHostAndTrailingDotAnotherOrigin() throws {
        #expect(try parse("https://*.example.com").domain == "*.example.com")
        let dotted = try parse("https://example.co.uk.")
        #expect(dotted.domain == "example.co.uk.")
        #expect(dotted.origin != (try parse("https://example.co.uk")).origin)
    }

    @Test func ipAddressesAreNotDomains() throws {
        #expect(try parse("https://0x7f.1").host == .ipv4("127.0.0.1"))
        #expect(try parse("https://192.168.0.1:8443").host == .ipv4("192.168.0.1"))
        #expect(try parse("https://[::1]").host == .ipv6("[::1]"))
        #expect(try fails("https://1.2.3.999"))
    }

    @Test func nonSpecialSchemesHaveOpaqueOrigins() throws {
        let app = try parse("android:apk-key-hash:FG3pg8VzBlDY7rmVLzT8ZBagg0LmHb6oigSWsj_PROU")
        #expect(app.host == nil && app.origin == nil)
        let other = try parse("other://a.com")
        #expect(other.host == .opaque("a.com") && other.origin == nil)
    }

    @Test func missingSlashesStillParseAsTheURLStandardDoes() throws {
        let url = try parse("https:shop.example")
        #expect(url.origin?.description == "https://shop.example" && url.changes.contains(.slashes))
    }
}
