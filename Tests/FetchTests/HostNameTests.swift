import Fetch
import Foundation
import Testing
import Vocabulary

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
                      "[::1]", "-bad.example", "user@example.com", "a_b.example", "_dmarc.example.com", String(repeating: "a", count: 64) + ".com"])
    func rejects(_ input: String) {
        #expect(throws: HostNameError.self) { try HostName(input) }
    }

    /// The paste mistakes get a message naming the part to remove (the registration form shows it
    /// beside the field; `import`, `check-now` and the API give the same one).
    @Test(arguments: [
        ("https://example.com", "without \"https://\""),
        ("example.com/app", "path \"/app\""),
        ("example.com:8443", "port \":8443\""),
        ("192.168.1.1", "IP address"),
        ("[::1]", "IP address"),
        ("", "Enter a host name"),
    ])
    func messagesNameThePartToRemove(_ input: String, _ expected: String) {
        do {
            _ = try HostName(input)
            Issue.record("\(input) was accepted")
        } catch {
            #expect(error.message.contains(expected), "\(error.message)")
        }
    }

    @Test func typedInputIsTrimmed() throws {
        let host = try HostName("  *.bücher.example ")
        #expect(host.ascii == "xn--bcher-kva.example" && host.unicode == "bücher.example" && host.isWildcard)
    }
}
