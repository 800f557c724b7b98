import CSodium
import TextEncoding

/// SHA-256 and the MAC built on it (HMAC-SHA256) through libsodium, written once for every module:
/// content addressing (association versions), migration checksums, token digests and CSRF/flash-cookie
/// MACs (Web), webhook signatures (Notify). Named for the hash both are, as CryptoKit names `SHA256`
/// and `HMAC<SHA256>`. Store holds it because every module that needs it already imports Store.
public enum SHA256 {
    /// The 32-byte SHA-256 of `bytes`.
    public static func digest(_ bytes: [UInt8]) -> [UInt8] {
        // sodium_init is idempotent and thread-safe; crypto_hash_sha256 needs no init, but calling it
        // once keeps libsodium's CPU feature detection in effect.
        _ = sodium_init()
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        _ = bytes.withUnsafeBufferPointer { input in
            crypto_hash_sha256(&digest, input.baseAddress, UInt64(bytes.count))
        }
        return digest
    }

    /// The SHA-256 of `bytes` as 64 lower-case hex digits (how association_versions.sha256 stores it).
    public static func hex(_ bytes: [UInt8]) -> String {
        Hex.encode(digest(bytes))
    }

    /// The 32-byte HMAC-SHA256 of `message` under `key` (RFC 2104; a key of any length).
    public static func hmac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        _ = sodium_init()
        var state = crypto_auth_hmacsha256_state()
        var mac = [UInt8](repeating: 0, count: Int(crypto_auth_hmacsha256_BYTES))
        // init/update/final accept a key of any length; crypto_auth_hmacsha256() wants exactly 32 bytes.
        _ = crypto_auth_hmacsha256_init(&state, key, key.count)
        _ = crypto_auth_hmacsha256_update(&state, message, UInt64(message.count))
        _ = crypto_auth_hmacsha256_final(&state, &mac)
        return mac
    }
}
