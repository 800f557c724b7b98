import Store
import TextEncoding

/// Bearer secrets (session cookies, API tokens): 32 random bytes shown once, stored only as a
/// SHA-256 digest so a leaked database does not leak working credentials. A fast hash is right
/// here: the secret has 256 bits of entropy, so there is nothing to brute-force.
public struct SecretToken: Sendable, Hashable {
    public let value: String

    public init(value: String) { self.value = value }

    /// `prefix` makes tokens recognisable in logs and secret scanners (`aasa_` for API tokens).
    public static func generate(prefix: String = "") -> SecretToken {
        SecretToken(value: prefix + Hex.encode(Crypto.randomBytes(32)))
    }

    /// What the database stores and looks up by.
    public var digest: String { Hex.encode(SHA256.digest(Array(value.utf8))) }

    public static func digest(of value: String) -> String { SecretToken(value: value).digest }
}
