import TextEncoding

/// Checks a login's password in about the same time whether or not the email has an account: an
/// unknown email is checked against a dummy hash of the same cost, so how long the answer takes does
/// not tell a stranger which emails have accounts.
struct PasswordCheck: Sendable {
    let dummyHash: String

    init(hasher: PasswordHasher) {
        // Hashing fails only when its memory cannot be allocated; then there is no timing to protect.
        dummyHash = (try? hasher.hash(Hex.encode(Crypto.randomBytes(16)))) ?? ""
    }

    /// The hash a password is checked against: the account's, or the dummy for an unknown email.
    func hashToCheck(stored: String?) -> String { stored ?? dummyHash }

    /// True when the account exists and the password is its own; the same work either way.
    func matches(_ password: String, stored: String?) -> Bool {
        let matches = PasswordHasher.verify(password, against: hashToCheck(stored: stored))
        return matches && stored != nil
    }
}
