import Foundation
import Testing
import Vocabulary

/// The package and fingerprint rules the app form, the API, the CLI and the manifest import share.
@Suite struct AndroidAppTests {
    @Test func packagesAsGradleAcceptsThem() throws {
        #expect(try AndroidPackage(typed: " com.example.shop_2 ").text == "com.example.shop_2")
        for bad in ["", "shop", "com..shop", "com.shop.", "com.2shop", "com.shop-app", "com.bücher"] {
            #expect(throws: AndroidAppError.self, "\(bad)") { try AndroidPackage(typed: bad) }
        }
    }

    @Test func fingerprintsAreStoredInOneForm() throws {
        let upper = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
        #expect(try CertificateFingerprint(typed: upper.lowercased()).text == upper)
        #expect(try CertificateFingerprint(typed: upper.replacingOccurrences(of: ":", with: "")).text == upper)
        #expect(throws: AndroidAppError(message: "\"AA:BB\" has 2 octets; a SHA-256 fingerprint has 32.")) { try CertificateFingerprint(typed: "AA:BB") }
        let sha1 = Array(repeating: "AB", count: 20).joined(separator: ":")
        #expect(throws: AndroidAppError(message: "\"\(sha1)\" is a SHA-1 fingerprint (20 octets); use the SHA-256 one (32 octets).")) {
            try CertificateFingerprint(typed: sha1)
        }
        #expect(throws: AndroidAppError.self) { try CertificateFingerprint(typed: "ZZ" + upper.dropFirst(2)) }
    }
}
