import Fetch
import Foundation
import Testing

@Suite struct HostNameTests {
    @Test func unicodeBecomesPunycode() throws {
        let host = try HostName("Bücher.Example")
        #expect(host.ascii == "xn--bcher-kva.example")
        #expect(host.unicode == "bücher.example")
        #expect(!host.isWildcard)
    }

    @Test func nonTransitionalMappingKeepsSharpS() throws {
        // UTS #46 non-transitional: ß stays ß (xn--fa-hia), transitional would give "fass".
        #expect(try HostName("faß.de").ascii == "xn--fa-hia.de")
    }

    @Test func wildcardIsFetchedFromParent() throws {
        let host = try HostName("*.example.com")
        #expect(host.ascii == "example.com")
        #expect(host.isWildcard)
    }

    @Test func trailingDotAndCaseAreNormalised() throws {
        #expect(try HostName("WWW.Example.COM.").ascii == "www.example.com")
    }

    @Test(arguments: ["", "https://example.com", "example.com/path", "example.com:443", "a..b", "192.0.2.1",
                      "[::1]", "-bad.example", "user@example.com", String(repeating: "a", count: 64) + ".com"])
    func rejects(_ input: String) {
        #expect(throws: HostNameError.self) { try HostName(input) }
    }
}
