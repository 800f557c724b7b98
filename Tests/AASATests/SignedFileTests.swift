import AASA
import Testing

/// CMS/PKCS#7 SignedData bodies (the iOS 8/9 form): the JSON inside is read, the signature is not verified.
@Suite struct SignedFileTests {
    func plainDocument() throws -> AASADocument? {
        AASAParser.parse(try FixtureFile.bytes("signed-content.json")).document
    }

    @Test(arguments: ["signed-smime.der", "signed-cms-stream.der"])
    func attachedContentIsExtracted(_ fixture: String) throws {
        let result = AASAParser.parse(try FixtureFile.bytes(fixture))
        var document = try #require(result.document)
        #expect(document.wasSigned)
        let deprecation = try #require(result.findings.first)
        #expect(deprecation.code == "signed-file-deprecated")
        #expect(deprecation.severity == .deprecation)
        #expect(deprecation.message.contains("NOT verified"))
        #expect(document.applinks?.details.first?.rules.map(\.settings) ==
                [RuleSettings(path: "/signed/*"), RuleSettings(path: "/signed/private/*", exclude: true)])
        // Same document as the plain JSON, apart from locations (smime's CRLF line ends) and the flag.
        document.wasSigned = false
        let plain = try #require(try plainDocument())
        #expect(document.appServices["webcredentials"]?.apps == plain.appServices["webcredentials"]?.apps)
        #expect(document.applinks?.details.map(\.appIDs) == plain.applinks?.details.map(\.appIDs))
    }

    @Test func detachedSignatureHasNoContent() throws {
        let result = AASAParser.parse(try FixtureFile.bytes("signed-detached.der"))
        #expect(result.document == nil)
        #expect(result.findings.map(\.code) == ["signed-content-unreadable"])
        #expect(result.findings.first?.message.contains("detached") == true)
    }

    @Test func derThatIsNotCMSIsUnreadable() {
        // SEQUENCE { INTEGER 0 }: DER, but no ContentInfo.
        let result = AASAParser.parse([0x30, 0x03, 0x02, 0x01, 0x00])
        #expect(result.findings.map(\.code) == ["signed-content-unreadable"])
    }

    @Test func truncatedLengthsNeverReadOutOfBounds() {
        for bytes: [UInt8] in [[0x30], [0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF], [0x30, 0x80], [0x30, 0x80, 0x06, 0x80],
                               [0x30, 0x89, 1, 2, 3, 4, 5, 6, 7, 8, 9]] {
            let result = AASAParser.parse(bytes)
            #expect(result.document == nil)
            #expect(result.findings.contains { $0.severity == .error })
        }
    }
}
