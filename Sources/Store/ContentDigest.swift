import CSodium
import TextEncoding

/// SHA-256 through libsodium, for content addressing (AASA versions) and migration checksums.
public enum ContentDigest {
    /// The 32-byte SHA-256 of `bytes`.
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        // sodium_init is idempotent and thread-safe; crypto_hash_sha256 needs no init, but calling it
        // once keeps libsodium's CPU feature detection in effect.
        _ = sodium_init()
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        _ = bytes.withUnsafeBufferPointer { input in
            crypto_hash_sha256(&digest, input.baseAddress, UInt64(bytes.count))
        }
        return digest
    }

    /// The SHA-256 of `bytes` as 64 lower-case hex digits (how aasa_versions.sha256 stores it).
    public static func sha256Hex(_ bytes: [UInt8]) -> String {
        Hex.encode(sha256(bytes))
    }
}
