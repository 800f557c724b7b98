import Foundation
import Testing
import Vocabulary
import WebAuthn

/// `/.well-known/passkey-endpoints` and `/.well-known/change-password` (passkeys-spec.md §3.7–3.8,
/// §6.2): every code has an input that must produce it, and none is an error (issue #33).
@Suite struct PasskeyEndpointsTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var code: String
        var produce: @Sendable (DomainRules) throws -> [Finding]
        var pointer: String?
        var testDescription: String { code }

        init(_ code: String, _ text: String, at pointer: String? = nil) {
            self.code = code
            self.pointer = pointer
            produce = { rules in
                PasskeyEndpointsReader.read(Array(text.utf8), rpID: try RelyingPartyID("example.com", rules: rules), rules: rules).findings
            }
        }

        init(_ code: String, _ findings: @escaping @Sendable () -> [Finding]) {
            self.code = code
            pointer = nil
            produce = { _ in findings() }
        }
    }

    static func exchange(_ status: Int, contentType: String? = "application/json", location: String? = nil) -> TransportFacts {
        var headers: [String: String] = [:]
        headers["content-type"] = contentType
        headers["location"] = location
        return TransportFacts(location: .wellKnown, url: "https://example.com/.well-known/passkey-endpoints", status: status, headers: headers)
    }

    static let all: [Case] = [
        Case("passkey-endpoints-missing") { OptionalFilesTransport.passkeyEndpoints(exchange(404)) },
        Case("passkey-endpoints-redirect") { OptionalFilesTransport.passkeyEndpoints(exchange(302, location: "https://example.com/pk.json")) },
        Case("passkey-endpoints-http-status") { OptionalFilesTransport.passkeyEndpoints(exchange(503)) },
        Case("passkey-endpoints-content-type") { OptionalFilesTransport.passkeyEndpoints(exchange(200, contentType: "text/html")) },
        Case("passkey-endpoints-catch-all") { OptionalFilesTransport.passkeyEndpoints(exchange(200), probeStatus: 200) },
        Case("passkey-endpoints-invalid-json", "{\"enroll\": \"https://example.com/p\",}"),
        Case("passkey-endpoints-not-object", "[\"https://example.com/p\"]", at: ""),
        Case("passkey-endpoints-empty", "{}", at: ""),
        Case("passkey-endpoints-url-invalid", "{\"enroll\": \"/passkeys/new\"}", at: "/enroll"),
        Case("passkey-endpoints-url-insecure", "{\"manage\": \"http://example.com/passkeys\"}", at: "/manage"),
        Case("passkey-endpoints-offsite", "{\"manage\": \"https://accounts.other.example/passkeys\"}", at: "/manage"),
        Case("passkey-endpoints-unknown-key", "{\"enrol\": \"https://example.com/p\"}", at: "/enrol"),
        Case("duplicate-json-key", "{\"enroll\": \"https://example.com/a\", \"enroll\": \"https://example.com/b\"}", at: "/enroll"),
        Case("change-password-missing") { OptionalFilesTransport.changePassword(status: 404, location: nil, probeStatus: 404) },
        Case("change-password-permanent-redirect") { OptionalFilesTransport.changePassword(status: 301, location: "https://example.com/pw", probeStatus: nil) },
        Case("change-password-unreliable-status") { OptionalFilesTransport.changePassword(status: 302, location: "https://example.com/pw", probeStatus: 200) },
    ]

    @Test(arguments: all)
    func codeIsReported(_ testCase: Case) throws {
        let findings = try testCase.produce(Rules.real())
        let matching = findings.filter { $0.code == testCase.code }
        #expect(!matching.isEmpty, "expected \(testCase.code), got \(findings.map(\.code))")
        if let pointer = testCase.pointer {
            #expect(matching.contains { $0.location?.pointer == pointer }, "\(matching.map { $0.location?.pointer ?? "nil" })")
        }
        for finding in findings {
            #expect(finding.severity != .error, "\(finding.code) is an error; the optional files report info and warnings only")
            #expect(!finding.message.isEmpty && finding.hint?.isEmpty == false)
            #expect(finding.severity == PasskeyEndpointsFindingCatalog.definition(for: finding.code)?.severity)
        }
    }

    @Test func wellFormedFileGivesItsLinks() throws {
        let rules = try Rules.real()
        let reading = PasskeyEndpointsReader.read(Array("{\"enroll\": \"https://example.com/passkeys/new\", \"manage\": \"https://login.example.com/passkeys\"}".utf8),
                                                  rpID: try RelyingPartyID("example.com", rules: rules), rules: rules)
        #expect(reading.findings.isEmpty, "\(reading.findings.map(\.code))")
        #expect(reading.endpoints == ["enroll": "https://example.com/passkeys/new", "manage": "https://login.example.com/passkeys"])
        #expect(OptionalFilesTransport.passkeyEndpoints(Self.exchange(200, contentType: "application/json; charset=utf-8"), probeStatus: 404).isEmpty)
    }

    @Test func changePasswordAcceptsTemporaryRedirectsAndTwoHundred() {
        for status in [302, 303, 307, 200] {
            #expect(OptionalFilesTransport.changePassword(status: status, location: "https://example.com/pw", probeStatus: 404).isEmpty, "\(status)")
        }
        #expect(OptionalFilesTransport.changePassword(status: nil, location: nil, probeStatus: nil).map(\.code) == ["change-password-missing"])
    }

    @Test func everyCatalogCodeHasACase() {
        #expect(Set(PasskeyEndpointsFindingCatalog.all.map(\.code)) == Set(Self.all.map(\.code)))
        #expect(Set(PasskeyEndpointsFindingCatalog.all.map(\.code)).count == PasskeyEndpointsFindingCatalog.all.count)
    }

    @Test func docsListEveryCodeWithItsSeverity() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/findings.md")
        let documented = FindingDocsTable.codes(in: try String(contentsOf: docs, encoding: .utf8), section: "Web: passkey-endpoints")
        let catalog = Dictionary(uniqueKeysWithValues: PasskeyEndpointsFindingCatalog.all.map { ($0.code, $0.severity.rawValue) })
        #expect(documented == catalog)
    }
}
