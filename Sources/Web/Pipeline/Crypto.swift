import CSodium

/// The few primitives the web layer needs, all from libsodium; SHA-256 and HMAC-SHA256 are Store's
/// `SHA256`, shared with Notify's webhook signatures.
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

    /// Compares in time that depends only on the length, so a token cannot be guessed byte by byte.
    public static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        _ = ready
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return sodium_memcmp(a, b, a.count) == 0
    }
}
