import CSodium

/// Argon2id password hashes in libsodium's self-describing string form (`$argon2id$v=19$m=...`),
/// so the parameters travel with the hash and can be raised later without a migration.
public struct PasswordHasher: Sendable {
    public var opsLimit: Int
    public var memLimit: Int

    /// libsodium's "interactive" profile: 64 MiB and 2 passes, about a tenth of a second here.
    public static let interactive = PasswordHasher(opsLimit: Int(crypto_pwhash_opslimit_interactive()),
                                                   memLimit: Int(crypto_pwhash_memlimit_interactive()))

    public init(opsLimit: Int, memLimit: Int) {
        self.opsLimit = opsLimit
        self.memLimit = memLimit
    }

    public struct HashingFailed: Error {}

    public func hash(_ password: String) throws(HashingFailed) -> String {
        _ = Crypto.ready
        var out = [CChar](repeating: 0, count: Int(crypto_pwhash_strbytes()))
        // utf8CString is never empty (it ends in NUL), so its base address exists even for "".
        let chars = Array(password.utf8CString)
        let length = UInt64(chars.count - 1)
        let rc = crypto_pwhash_str(&out, chars, length, UInt64(opsLimit), memLimit)
        // Fails only when the memory limit cannot be allocated.
        guard rc == 0 else { throw HashingFailed() }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public static func verify(_ password: String, against stored: String) -> Bool {
        _ = Crypto.ready
        var hashChars = Array(stored.utf8CString)
        guard hashChars.count <= Int(crypto_pwhash_strbytes()) else { return false }
        hashChars += [CChar](repeating: 0, count: Int(crypto_pwhash_strbytes()) - hashChars.count)
        let chars = Array(password.utf8CString)
        return crypto_pwhash_str_verify(hashChars, chars, UInt64(chars.count - 1)) == 0
    }
}
