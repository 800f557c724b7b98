import CSodium

/// The few primitives the web layer needs, all from libsodium.
public enum Crypto {
    /// sodium_init is idempotent and thread-safe; every entry point touches this first.
    static let ready: Bool = sodium_init() >= 0

    public static func randomBytes(_ count: Int) -> [UInt8] {
        precondition(ready, "libsodium failed to initialise")
        var out = [UInt8](repeating: 0, count: count)
        out.withUnsafeMutableBytes { buf in
            if let base = buf.baseAddress { randombytes_buf(base, count) }
        }
        return out
    }

    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        _ = ready
        var out = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        _ = crypto_hash_sha256(&out, bytes, UInt64(bytes.count))
        return out
    }

    public static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        _ = ready
        var state = crypto_auth_hmacsha256_state()
        var out = [UInt8](repeating: 0, count: Int(crypto_auth_hmacsha256_BYTES))
        _ = crypto_auth_hmacsha256_init(&state, key, key.count)
        _ = crypto_auth_hmacsha256_update(&state, message, UInt64(message.count))
        _ = crypto_auth_hmacsha256_final(&state, &out)
        return out
    }

    /// Compares in time that depends only on the length, so a token cannot be guessed byte by byte.
    public static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        _ = ready
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return sodium_memcmp(a, b, a.count) == 0
    }
}
