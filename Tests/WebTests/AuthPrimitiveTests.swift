import Testing
@testable import Web

@Suite struct AuthPrimitiveTests {
    // Cheapest parameters libsodium accepts, so the suite stays quick; production uses .interactive.
    let hasher = PasswordHasher(opsLimit: 1, memLimit: 8192)

    @Test func argon2idHashVerifiesOnlyTheRightPassword() throws {
        let hash = try hasher.hash("correct horse")
        #expect(hash.hasPrefix("$argon2id$"))
        #expect(PasswordHasher.verify("correct horse", against: hash))
        #expect(!PasswordHasher.verify("correct hors", against: hash))
        #expect(!PasswordHasher.verify("", against: hash))
        #expect(!PasswordHasher.verify("correct horse", against: "not a hash"))
        // Salted: the same password hashes differently each time.
        #expect(try hasher.hash("correct horse") != hash)
        let empty = try hasher.hash("")
        #expect(PasswordHasher.verify("", against: empty))
    }

    @Test func tokensAreRandomAndStoredAsDigests() {
        let a = SecretToken.generate(prefix: "aasa_"), b = SecretToken.generate(prefix: "aasa_")
        #expect(a != b)
        #expect(a.value.hasPrefix("aasa_") && a.value.count == 5 + 64)
        #expect(a.digest.count == 64 && a.digest != a.value)
        #expect(SecretToken.digest(of: "abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func csrfTokenIsBoundToTheSession() {
        let t = CSRFToken.make(forSession: "session-one")
        #expect(CSRFToken.isValid(t, forSession: "session-one"))
        #expect(!CSRFToken.isValid(t, forSession: "session-two"))
        #expect(!CSRFToken.isValid(nil, forSession: "session-one"))
        #expect(!CSRFToken.isValid("", forSession: "session-one"))
        #expect(!CSRFToken.isValid(t, forSession: ""))
    }

    @Test func cookieAttributes() {
        let c = SessionCookie.set(name: "aasa_session", value: "v", maxAge: 60, secure: true)
        #expect(c == "aasa_session=v; Path=/; Max-Age=60; HttpOnly; SameSite=Lax; Secure")
        #expect(!SessionCookie.set(name: "n", value: "v", maxAge: 60, secure: false).contains("Secure"))
        let request = WebRequest(method: "GET", target: "/", headers: [("Cookie", "a=1; aasa_session=xyz; b=2")])
        #expect(request.cookies["aasa_session"] == "xyz")
    }
}
