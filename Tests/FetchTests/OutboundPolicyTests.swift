@testable import Fetch
import Outbound
import Testing

@Suite struct OutboundPolicyTests {
    /// Every special-purpose range the crawler must refuse, with one address inside it.
    static let refused: [String] = [
        "0.0.0.0", "0.1.2.3",                      // unspecified / this network
        "127.0.0.1", "127.255.255.254",            // loopback
        "10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1",   // RFC 1918
        "100.64.0.1", "100.127.255.255",           // CGNAT
        "169.254.169.254",                         // link-local (cloud metadata)
        "224.0.0.1", "239.255.255.250",            // multicast
        "255.255.255.255",                         // broadcast
        "192.0.2.10", "198.51.100.7", "203.0.113.9",   // documentation
        "198.18.0.1", "198.19.255.255",            // benchmarking
        "240.0.0.1", "250.1.2.3",                  // reserved
        "192.0.0.8",                               // IETF protocol assignments
        "::", "::1",                               // unspecified, loopback
        "fc00::1", "fd12:3456::1",                 // ULA
        "fe80::1",                                 // link-local
        "ff02::1",                                 // multicast
        "2001:db8::1",                             // documentation
        "::ffff:127.0.0.1", "::ffff:10.1.2.3", "::ffff:169.254.169.254",   // v4-mapped
        "::127.0.0.1", "::8.8.8.8",                // v4-compatible (deprecated)
        "64:ff9b::7f00:1", "64:ff9b::a00:1",       // NAT64 of loopback / private
        "2002:7f00:1::1", "2002:c0a8:101::1",      // 6to4 of loopback / private
        "2001:0:4136:e378:8000:63bf:80ff:fffe",    // Teredo, client 127.0.0.1 (inverted)
        "2001:0:4136:e378:8000:63bf:f5ff:fffe",    // Teredo, client 10.0.0.1
    ]

    static let allowed: [String] = [
        "8.8.8.8", "17.253.144.10", "1.1.1.1", "100.128.0.1", "172.32.0.1", "198.20.0.1",
        "2a00:1450:4001:80b::200e", "2606:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1",
    ]

    @Test(arguments: refused)
    func refusesSpecialPurposeAddress(_ text: String) throws {
        let address = try #require(IPAddress(text))
        let reason = OutboundPolicy().refusal(for: address)
        #expect(reason != nil, "\(text) should be refused")
    }

    @Test(arguments: allowed)
    func allowsPublicAddress(_ text: String) throws {
        let address = try #require(IPAddress(text))
        #expect(OutboundPolicy().refusal(for: address) == nil, "\(text): \(OutboundPolicy().refusal(for: address) ?? "")")
    }

    @Test func optInAllowsLoopback() throws {
        let address = try #require(IPAddress("127.0.0.1"))
        #expect(OutboundPolicy(allowPrivateAddresses: true).refusal(for: address) == nil)
    }

    @Test func reasonNamesTheEmbeddedAddress() throws {
        let reason = OutboundPolicy().refusal(for: try #require(IPAddress("::ffff:127.0.0.1")))
        #expect(reason == "IPv4-mapped ::ffff:0:0/96 of 127.0.0.1, which is loopback 127.0.0.0/8")
    }
}

@Suite struct ConnectToRuleTests {
    @Test func parsesCurlForms() throws {
        let rule = try ConnectToRule(parsing: "::127.0.0.1:8443")
        #expect(rule.host == nil && rule.port == nil && rule.connectHost == "127.0.0.1" && rule.connectPort == 8443)
        let v6 = try ConnectToRule(parsing: "example.com:443:[::1]:9443")
        #expect(v6.host == "example.com" && v6.port == 443 && v6.connectHost == "::1" && v6.connectPort == 9443)
        #expect(v6.description == "example.com:443:[::1]:9443")
        let list = try ConnectToRule.parseList("a.test:443:127.0.0.1:1, b.test::127.0.0.1:2")
        #expect(list.count == 2 && list[1].host == "b.test" && list[1].connectPort == 2)
    }

    @Test func rejectsMalformedRules() {
        #expect(throws: ConnectToError.self) { try ConnectToRule(parsing: "example.com:443") }
        #expect(throws: ConnectToError.self) { try ConnectToRule(parsing: "a:99999:b:1") }
    }
}
