import Foundation
import Store

/// Login, logout, first-start setup, password change and user management.
enum AccountHandlers {
    static func loginForm(_ c: RequestContext) throws -> WebResponse {
        if (try? c.sessions.current(c.request)) != nil { return .seeOther("/") }
        return .html(AccountPages.login(csrf: c.viewer?.csrf ?? "", next: keptNext(c.query["next"])))
    }

    static func login(_ c: RequestContext, store: any AccountStore) throws -> WebResponse {
        let email = (c.form["email"] ?? "").trimmingCharacters(in: .whitespaces)
        let password = c.form["password"] ?? ""
        // The form carries `next` from the page that sent the person to log in; older links put it in the query.
        let next = keptNext(c.form["next"] ?? c.query["next"])
        let address = c.request.remoteAddress
        let wait = c.limiter.retryAfter(address: address, account: email, now: c.nowEpoch)
        if wait > 0 {
            let minutes = max(1, (wait + 59) / 60)
            return .html(AccountPages.login(email: email, error: "Too many failed attempts. Try again in \(minutes) minute\(minutes == 1 ? "" : "s").",
                                            csrf: c.viewer?.csrf ?? "", next: next), status: 429)
                .with(header: "Retry-After", String(wait))
        }
        let account = try store.user(email: email)
        guard c.passwordCheck.matches(password, stored: account?.passwordHash), let user = account else {
            c.limiter.recordFailure(address: address, account: email, now: c.nowEpoch)
            return .html(AccountPages.login(email: email, error: "That email and password do not match an account.",
                                            csrf: c.viewer?.csrf ?? "", next: next), status: 401)
        }
        c.limiter.recordSuccess(address: address, account: email)
        let cookie = try c.sessions.start(userID: user.id, secure: c.isSecure)
        return .seeOther(safeNext(next)).with(header: "Set-Cookie", cookie)
    }

    /// `next` as the login form carries it on: only when it is a safe place to land.
    static func keptNext(_ next: String?) -> String? {
        guard let next, safeNext(next) != "/" else { return nil }
        return next
    }

    /// Only a path on this site, so a crafted link cannot send people elsewhere after login. Checked
    /// after percent-decoding, as a browser would read the `Location`: `//evil`, `/\\evil`, absolute
    /// URLs, and control characters (`/%09/evil`: browsers drop the tab and read `//evil`) are refused.
    static func safeNext(_ next: String?) -> String {
        guard let next, let decoded = PercentEncoding.decode(next) else { return "/" }
        for text in [next, decoded] {
            let scalars = Array(text.unicodeScalars)
            guard scalars.first == "/" else { return "/" }
            if scalars.count > 1, scalars[1] == "/" || scalars[1] == "\\" { return "/" }
            if scalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == "\\" }) { return "/" }
        }
        return next
    }

    static func logout(_ c: RequestContext, store: any AccountStore) throws -> WebResponse {
        if let secret = c.request.cookies[SessionCookie.sessionName] {
            try store.deleteSession(tokenHash: SecretToken.digest(of: secret))
        }
        return .seeOther("/login").with(header: "Set-Cookie", SessionCookie.clear(name: SessionCookie.sessionName, secure: c.isSecure))
    }

    static func setupForm(_ c: RequestContext) throws -> WebResponse {
        if try c.setup.isSetUp() { return .seeOther("/login") }
        return .html(AccountPages.setup(csrf: c.viewer?.csrf ?? ""))
    }

    /// Wrong setup codes count as failed logins of this pseudo-account, so guessing slows down.
    static let setupAccount = "(first-run setup)"

    static func setup(_ c: RequestContext, store: any AccountStore & TransactionalStore) throws -> WebResponse {
        if try c.setup.isSetUp() { return .seeOther("/login") }
        let email = (c.form["email"] ?? "").trimmingCharacters(in: .whitespaces)
        let address = c.request.remoteAddress
        var errors: [String: String] = [:]
        // As a login that waits: 429 with Retry-After, and nothing of the form is judged, so a
        // script guessing codes learns only when it may try again.
        let wait = c.limiter.retryAfter(address: address, account: setupAccount, now: c.nowEpoch)
        if wait > 0 {
            let minutes = max(1, (wait + 59) / 60)
            errors["setup_code"] = "Too many wrong codes. Try again in \(minutes) minute\(minutes == 1 ? "" : "s")."
            return .html(AccountPages.setup(email: email, errors: errors, csrf: c.viewer?.csrf ?? ""), status: 429)
                .with(header: "Retry-After", String(wait))
        }
        if !c.setupCode.matches(c.form["setup_code"]) {
            c.limiter.recordFailure(address: address, account: setupAccount, now: c.nowEpoch)
            errors["setup_code"] = "That is not the setup code: `aasa-monitor serve` printed it in its log when it started."
        }
        if let e = emailProblem(email) { errors["email"] = e }
        let password = c.form["password"] ?? ""
        if let p = passwordProblem(password) { errors["password"] = p }
        if password != (c.form["confirm"] ?? "") { errors["confirm"] = "The two passwords differ." }
        guard errors.isEmpty else {
            return .html(AccountPages.setup(email: email, errors: errors, csrf: c.viewer?.csrf ?? ""), status: 422)
        }
        let hash = try c.configuration.passwordHasher.hash(password)
        guard let id = try store.withTransaction({ try $0.createFirstAdmin(email: email, passwordHash: hash) }) else {
            return .seeOther("/login")
        }
        let cookie = try c.sessions.start(userID: id, secure: c.isSecure)
        return .seeOther("/").with(header: "Set-Cookie", cookie)
    }

    static func emailProblem(_ email: String) -> String? { AccountRules.emailProblem(email) }
    static func passwordProblem(_ password: String) -> String? { AccountRules.passwordProblem(password) }

    static func passwordForm(_ c: RequestContext) throws -> WebResponse {
        .html(AccountPages.changePassword(viewer: try c.signedIn))
    }

    static func changePassword(_ c: RequestContext, store: any AccountStore & TransactionalStore) throws -> WebResponse {
        let viewer = try c.signedIn
        guard let user = try store.user(id: viewer.userID) else { throw WebError.notFound("Your account no longer exists.") }
        var errors: [String: String] = [:]
        if !PasswordHasher.verify(c.form["current"] ?? "", against: user.passwordHash) {
            errors["current"] = "That is not your current password."
        }
        let password = c.form["password"] ?? ""
        if let p = passwordProblem(password) { errors["password"] = p }
        if password != (c.form["confirm"] ?? "") { errors["confirm"] = "The two passwords differ." }
        guard errors.isEmpty else { return .html(AccountPages.changePassword(viewer: viewer, errors: errors), status: 422) }
        let hash = try c.configuration.passwordHasher.hash(password)
        // Every session of the account ends, this one included; this browser gets a fresh one.
        try store.withTransaction { try $0.changePassword(userID: user.id, passwordHash: hash) }
        let cookie = try c.sessions.start(userID: user.id, secure: c.isSecure)
        return c.redirect("/settings", flash: Flash(.success, "Password changed. Other sessions of your account were logged out."))
            .with(header: "Set-Cookie", cookie)
    }

    static func createUser(_ c: RequestContext, store: any SettingsPageStore) throws -> WebResponse {
        let email = (c.form["email"] ?? "").trimmingCharacters(in: .whitespaces)
        var errors: [String: String] = [:]
        if let e = emailProblem(email) { errors["email"] = e }
        let password = c.form["password"] ?? ""
        if let p = passwordProblem(password) { errors["password"] = p }
        // The form offers the two roles; anything else is refused rather than made read-only quietly.
        let role = Role(rawValue: c.form["role"] ?? "")
        if role == nil { errors["role"] = "Choose a role: \(Role.readOnly.label) or \(Role.admin.label)." }
        if errors.isEmpty, let role {
            let hash = try c.configuration.passwordHasher.hash(password)
            if try store.createUser(email: email, passwordHash: hash, role: role) != nil {
                return c.redirect("/settings/users", flash: Flash(.success, "User added."))
            }
            errors["email"] = "There already is an account for \(email)."
        }
        return try SettingsHandlers.page(c, store: store, section: .users, errors: errors, values: ["email": email, "role": role?.rawValue ?? ""], status: 422)
    }

    static func deleteUser(_ c: RequestContext, store: any AccountStore) throws -> WebResponse {
        guard let id = c.parameters.id("id") else { throw WebError.notFound("No such user.") }
        guard id != (try c.signedIn).userID else { throw WebError.badRequest("You cannot remove your own account.") }
        try store.deleteUser(id: id)
        return c.redirect("/settings/users", flash: Flash(.success, "User removed."))
    }
}
