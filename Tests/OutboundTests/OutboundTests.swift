import CCurl
import Glibc
import Outbound
import Testing
import TestSupport

@Suite struct OutboundURLTests {
    @Test func hostIsTheASCIINameCurlConnectsWith() throws {
        let unicode = try OutboundURL("https://Bücher.Example/hook?x=1")
        #expect(unicode.host == "xn--bcher-kva.example")
        #expect(unicode.url == "https://xn--bcher-kva.example/hook?x=1")
        #expect(unicode.scheme == "https" && unicode.port == 443 && !unicode.hasCredentials)
        let punycode = try OutboundURL("http://xn--bcher-kva.example:8080/")
        #expect(punycode.host == "xn--bcher-kva.example" && punycode.port == 8080)
        let literal = try OutboundURL("http://[::ffff:10.1.2.3]/")
        #expect(literal.host == "::ffff:10.1.2.3" && literal.port == 80)
        #expect(try OutboundURL("smtp://user:secret@mail.example.test").hasCredentials)
        #expect(try OutboundURL("smtps://mail.example.test").port == 465)
        #expect(throws: OutboundURLError.self) { try OutboundURL("no scheme here") }
        #expect(throws: OutboundURLError.self) { try OutboundURL("http://exa mple.test/") }
    }

    @Test func everyAddressOfANameIsJudged() throws {
        let policy = OutboundPolicy()
        let public4 = try #require(IPAddress("192.0.43.10"))   // not a special-purpose range
        let mapped = try #require(IPAddress("::ffff:127.0.0.1"))
        #expect(policy.refusal(among: [public4]) == nil)
        let refusal = try #require(policy.refusal(among: [public4, mapped]))
        #expect(refusal.address == mapped && refusal.range.contains("loopback"))
        #expect(OutboundPolicy(allowPrivateAddresses: true).refusal(among: [public4, mapped]) == nil)
        let url = try OutboundURL("http://169.254.169.254/latest/meta-data")
        guard case .failure(.address(let address, let range)) = url.pin(policy: policy, resolver: SystemResolver()) else {
            Issue.record("a metadata-service address must be refused")
            return
        }
        #expect(address == IPAddress("169.254.169.254") && range.contains("link-local"))
    }
}

@Suite struct CurlEasyTests {
    @Test func refusedOptionIsAnError() throws {
        let easy = try CurlEasy()
        #expect(throws: CurlError.self) { try easy.set(CURLOPT_PROTOCOLS_STR, "no-such-protocol") }
        try easy.set(CURLOPT_PROTOCOLS_STR, "https")
    }

    /// curl is told to connect to 127.0.0.1, but the pin says 127.0.0.9: the socket guard refuses, and
    /// nothing reaches the receiver listening at 127.0.0.1.
    @Test func socketGuardRefusesAnAddressThatWasNotJudged() throws {
        let receiver = try TestWebhookReceiver()
        let url = try OutboundURL("http://guard.test:\(receiver.port)/hook")
        let pin = PinnedConnection(host: url.host, port: url.port, connectTo: ("127.0.0.1", receiver.port),
                                   addresses: [try #require(IPAddress("127.0.0.9"))])
        let transfer = try BlockingTransfer(url, pinnedTo: pin)
        try transfer.setPostBody(Array("{}".utf8))
        let error = try #require(throws: CurlError.self) { try transfer.perform() }
        #expect(error.message.contains("refused to connect to 127.0.0.1"), "\(error)")
        #expect(transfer.easy.refusedAddress == IPAddress("127.0.0.1"))
        #expect(receiver.requests().isEmpty)
    }

    /// A handle nobody pinned has no judged address, so it connects nowhere.
    @Test func unpinnedHandleConnectsNowhere() throws {
        let receiver = try TestWebhookReceiver()
        let url = try OutboundURL(receiver.url)
        let transfer = try BlockingTransfer(url, pinnedTo: PinnedConnection(host: url.host, port: url.port, addresses: []))
        try transfer.setPostBody(Array("{}".utf8))
        #expect(throws: CurlError.self) { try transfer.perform() }
        #expect(receiver.requests().isEmpty)
    }

    /// The pinned address is used even though curl could resolve the name itself (to 127.0.0.1).
    @Test func pinnedNameGoesToThePinnedAddress() throws {
        let judged = try TestWebhookReceiver(host: "127.0.0.2")
        let elsewhere = try TestWebhookReceiver(host: "127.0.0.1", port: judged.port)
        let url = try OutboundURL("http://pinned.localhost:\(judged.port)/hook")
        let transfer = try BlockingTransfer(url, pinnedTo: PinnedConnection(host: url.host, port: url.port,
                                                                            addresses: [try #require(IPAddress("127.0.0.2"))]))
        try transfer.setPostBody(Array("{}".utf8))
        try transfer.perform()
        #expect(transfer.responseCode == 200)
        #expect(judged.requests().count == 1)
        #expect(elsewhere.requests().isEmpty)
    }

    /// A pin lives in curl's DNS cache only as long as a resolved name would. A permanent entry (curl's
    /// default for CURLOPT_RESOLVE) stayed in the fetcher's one multi handle for every host name it
    /// ever checked, so memory grew with the number of domains. Here the cache keeps entries 1 s: once
    /// that has passed, the same handle with its pin list cleared no longer finds the pinned address
    /// and resolves the name itself (to the loopback), which the socket guard refuses. With a permanent
    /// entry the second request went to the pinned 127.0.0.2 again.
    @Test func aPinAgesOutOfCurlsDNSCache() throws {
        let judged = try TestWebhookReceiver(host: "127.0.0.2")
        let elsewhere = try TestWebhookReceiver(host: "127.0.0.1", port: judged.port)
        let url = try OutboundURL("http://aging.localhost:\(judged.port)/hook")
        let transfer = try BlockingTransfer(url, pinnedTo: PinnedConnection(host: url.host, port: url.port,
                                                                            addresses: [try #require(IPAddress("127.0.0.2"))]))
        try transfer.easy.set(CURLOPT_DNS_CACHE_TIMEOUT, 1)
        try transfer.easy.set(CURLOPT_FORBID_REUSE, 1)
        try transfer.setPostBody(Array("{}".utf8))
        try transfer.perform()
        #expect(transfer.responseCode == 200)
        try transfer.easy.set(CURLOPT_RESOLVE, pointer: nil)
        // Past the cache's 1 s: a wait for an expiry, not a measurement.
        usleep(2_100_000)
        #expect(throws: CurlError.self) { try transfer.perform() }
        // curl's own answer for a .localhost name (::1 or 127.0.0.1, whichever it tried last).
        #expect(transfer.easy.refusedAddress != nil)
        #expect(judged.requests().count == 1)
        #expect(elsewhere.requests().isEmpty)
    }
}
