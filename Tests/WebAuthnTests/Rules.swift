import Fetch
import PublicSuffixes
import Testing
import WebAuthn

/// The real tables: libidn2 (Fetch's conversion) and libpsl's list (ICANN and private sections).
enum Rules {
    static func real() throws -> DomainRules {
        DomainRules(idna: LibIDN2(), suffixes: try #require(LibPSL(), "libpsl loaded no Public Suffix List"))
    }

    /// A webauthn file listing `origins` (written as JSON strings).
    static func file(_ origins: [String]) -> [UInt8] {
        let list = origins.map { "\"\($0)\"" }.joined(separator: ", ")
        return Array("{\"origins\": [\(list)]}".utf8)
    }
}
