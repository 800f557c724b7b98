import AASA
import Testing

/// Random and mutated input never crashes the parser or validator, and everything they report is
/// a documented code with a sensible location.
@Suite struct ParserPropertyTests {
    static let knownCodes = Set(FindingCatalog.all.map(\.code))

    func checkInvariants(_ bytes: [UInt8], _ label: String) {
        let report = AASAValidator.validate(bytes)
        for finding in report.findings {
            #expect(Self.knownCodes.contains(finding.code), "\(label): unknown code \(finding.code)")
            if let line = finding.location?.line, let column = finding.location?.column {
                #expect(line >= 1 && column >= 1, "\(label): \(finding.code) at \(line):\(column)")
            }
            if let pointer = finding.location?.pointer {
                #expect(pointer.isEmpty || pointer.hasPrefix("/"), "\(label): pointer \(pointer)")
            }
        }
        #expect(report.findings.count <= 1_002, "\(label)")
        if report.document == nil {
            #expect(report.worstSeverity == .error, "\(label): no document but no error")
        }
    }

    @Test func randomBytesNeverCrash() {
        var rng = SplitMix64(seed: 0xA5A5)
        // Biased towards JSON punctuation so the reader gets deep into its paths, not stuck on byte one.
        let alphabet = Array(#"{}[]:,"\ 0123456789-+.eEtrufalsn/*#?$()NOT%é"#.utf8) + [0x00, 0x0A, 0xFF, 0xC3, 0x30, 0x80]
        for round in 0..<3_000 {
            let length = Int(rng.next() % 300)
            let bytes = (0..<length).map { _ in
                rng.next() % 4 == 0 ? UInt8(truncatingIfNeeded: rng.next()) : alphabet[Int(rng.next() % UInt64(alphabet.count))]
            }
            checkInvariants(bytes, "random round \(round)")
        }
    }

    @Test func mutatedValidFilesNeverCrash() throws {
        let seeds = [try FixtureFile.bytes("modern-overview.json"), try FixtureFile.bytes("legacy-not.json"),
                     try FixtureFile.bytes("signed-smime.der"), try FixtureFile.bytes("signed-cms-stream.der")]
        var rng = SplitMix64(seed: 0x5EED)
        for round in 0..<3_000 {
            var bytes = seeds[round % seeds.count]
            for _ in 0..<(1 + Int(rng.next() % 4)) where !bytes.isEmpty {
                let at = Int(rng.next() % UInt64(bytes.count))
                switch rng.next() % 4 {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: rng.next())
                case 1: bytes.remove(at: at)
                case 2: bytes.insert(Array(#"{}[]",:"#.utf8)[Int(rng.next() % 7)], at: at)
                default: bytes = Array(bytes[..<at])
                }
            }
            checkInvariants(bytes, "mutation round \(round)")
        }
    }

    @Test func everyPrefixOfAValidFileIsSafe() throws {
        let bytes = try FixtureFile.bytes("modern-overview.json")
        for end in 0...bytes.count { checkInvariants(Array(bytes[..<end]), "prefix \(end)") }
        let signed = try FixtureFile.bytes("signed-cms-stream.der")
        for end in 0...signed.count { checkInvariants(Array(signed[..<end]), "signed prefix \(end)") }
    }
}
