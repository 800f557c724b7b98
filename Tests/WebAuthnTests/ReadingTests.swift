import Testing
import Vocabulary
import WebAuthn

/// The document rules of passkeys-spec.md §3.1 and the RP ID rules of §4 step 0.
@Suite struct ReadingTests {
    /// A file of exactly `size` bytes: the origins object padded with spaces.
    func padded(to size: Int) -> [UInt8] {
        let file = Rules.file(["https://shop.example"])
        return file + [UInt8](repeating: 0x20, count: size - file.count)
    }

    @Test func sizeCapIs256KiB() {
        let atCap = RelatedOriginsReader.read(padded(to: 262_144))
        #expect(atCap.rejection == nil && atCap.entries.map(\.text) == ["https://shop.example"])
        #expect(!atCap.findings.contains { $0.code == "webauthn-too-large" })
        let over = RelatedOriginsReader.read(padded(to: 262_145))
        #expect(over.rejection?.contains("262144") == true)
        #expect(over.findings.contains { $0.code == "webauthn-too-large" && $0.severity == .error })
    }

    @Test func otherMembersAreIgnoredAndTheLastOriginsCounts() {
        let reading = RelatedOriginsReader.read(Array("{\"origins\": [\"https://a.example\"], \"v\": 1, \"origins\": [\"https://b.example\"]}".utf8))
        #expect(reading.rejection == nil)
        #expect(reading.entries.map(\.text) == ["https://b.example"])
        #expect(Set(reading.findings.map(\.code)) == ["webauthn-unknown-key", "webauthn-duplicate-key"])
    }

    @Test func bomIsReadPastWithAWarning() {
        let reading = RelatedOriginsReader.read([0xEF, 0xBB, 0xBF] + Rules.file(["https://a.example"]))
        #expect(reading.rejection == nil && reading.entries.count == 1)
        #expect(reading.findings.map(\.code) == ["webauthn-utf8-bom"])
    }

    @Test func emptyBodyAndInvalidUTF8AreInvalidJSON() {
        for bytes in [[UInt8](), Array("   ".utf8), Array("{\"origins\": [\"https://a.ex".utf8) + [0xFF] + Array("\"]}".utf8)] {
            let reading = RelatedOriginsReader.read(bytes)
            #expect(reading.rejection != nil)
            #expect(reading.findings.contains { $0.code == "webauthn-invalid-json" }, "\(reading.findings.map(\.code))")
        }
    }

    @Test func findingsCarryLineAndColumn() throws {
        let text = "{\n  \"origins\": [\n    \"https://a.example\",\n    \"ftp.example\"\n  ]\n}"
        let report = RelatedOriginsValidator.validate(Array(text.utf8), rules: try Rules.real())
        let finding = try #require(report.findings.first { $0.code == "webauthn-origin-unparseable" })
        #expect(finding.location == SourceLocation(pointer: "/origins/1", line: 4, column: 5))
    }

    @Test func nearNameOfOriginsIsSuggested() throws {
        let reading = RelatedOriginsReader.read(Array("{\"Origins\": [\"https://a.example\"]}".utf8))
        let finding = try #require(reading.findings.first { $0.code == "webauthn-origins-missing" })
        #expect(finding.message.contains("\"Origins\"") && finding.hint == "Rename \"Origins\" to \"origins\".")
    }

    @Test func rpIDsAreBareRegistrableDomains() throws {
        let rules = try Rules.real()
        #expect(try RelyingPartyID("Example.COM", rules: rules).domain == "example.com")
        #expect(try RelyingPartyID("bücher.de", rules: rules).domain == "xn--bcher-kva.de")
        #expect(try RelyingPartyID("name.github.io", rules: rules).domain == "name.github.io")
        #expect(try RelyingPartyID("localhost", rules: rules).domain == "localhost")
        for bad in ["https://example.com", "example.com:443", "example.com/", "*.example.com", "example.com.", "192.0.2.1",
                    "com", "co.uk", "github.io", ""] {
            #expect(throws: RelyingPartyIDError.self, "\(bad)") { try RelyingPartyID(bad, rules: rules) }
        }
    }
}
