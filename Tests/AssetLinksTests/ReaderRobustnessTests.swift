import AssetLinks
import Testing

/// Reading never traps, whatever the bytes; partial failure keeps what Google keeps.
@Suite struct ReaderRobustnessTests {
    @Test func randomBytesAndMutatedFilesNeverCrash() {
        var rng = SplitMix64(seed: 0xD1CE)
        let seed = Array(FindingCodeTests.rules("[{\"/\": \"/a/*\", \"?\": {\"q\": \"?*\"}}, {\"#\": \"x\", \"exclude\": true}, {\"/\": \"*\"}]").utf8)
        let alphabet = Array("[]{}\":,\\/*?#.%0aA \n".utf8) + [0x00, 0xC3, 0xFF, 0xEF, 0xBB, 0xBF]
        for round in 0..<3_000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = (0..<Int.random(in: 0...64, using: &rng)).map { _ in alphabet.randomElement(using: &rng) ?? 0 }
            } else {
                bytes = seed
                for _ in 0..<Int.random(in: 1...4, using: &rng) where !bytes.isEmpty {
                    let at = Int.random(in: 0..<bytes.count, using: &rng)
                    switch Int.random(in: 0..<3, using: &rng) {
                    case 0: bytes[at] = alphabet.randomElement(using: &rng) ?? 0
                    case 1: bytes.remove(at: at)
                    default: bytes.insert(alphabet.randomElement(using: &rng) ?? 0, at: at)
                    }
                }
            }
            let report = AssetLinksValidator.validate(bytes)
            #expect(report.findings.allSatisfy { !$0.message.isEmpty })
            if let file = report.file {
                let matcher = AppLinkMatcher(file)
                for package in file.packageNames {
                    let url = AndroidURL("https://h.example/a/b?q=1#x")
                    #expect(matcher.decide(url, packageName: package) == matcher.explain(url, packageName: package).decision)
                }
            }
        }
    }

    @Test func aMalformedStatementIsDroppedAndTheOthersStillApply() throws {
        let good = FindingCodeTests.app().dropFirst().dropLast()
        let text = "[\(good), {\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\": {\"namespace\": \"android_app\", \"package_name\": \"com.b\", \"sha256_cert_fingerprints\": [\"ab\"]}}, \(good)]"
        let reading = AssetLinksReader.read(Array(text.utf8))
        let file = try #require(reading.file)
        #expect(file.statements.map(\.index) == [0, 2])
        #expect(file.droppedCount == 1 && file.elementCount == 3)
        #expect(reading.googleReportsError)
        #expect(reading.findings.contains { $0.code == "statement-dropped" && $0.message.hasPrefix("1 of 3") })
    }

    @Test func aSyntaxErrorTheForgivingReaderSkipsStillFailsTheFileForGoogle() {
        let text = "[" + FindingCodeTests.app().dropFirst().dropLast() + ",]"
        let reading = AssetLinksReader.read(Array(text.utf8))
        #expect(reading.file == nil && reading.googleReportsError)
        #expect(reading.findings.contains { $0.code == "assetlinks-invalid-json" })
    }
}
