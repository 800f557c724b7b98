/// Login, first-start setup and password change: small forms, each with its CSRF token.
public enum AccountPages {
    /// `next`: where to go after logging in, carried through the form (checked again when it comes back).
    public static func login(email: String = "", error: String? = nil, csrf: String, next: String? = nil, status: Int = 200) -> HTML {
        let err: HTML = error.map { "<p class=\"error-text\" role=\"alert\">\($0)</p>" } ?? .empty
        let nextField: HTML = next.map { "<input type=\"hidden\" name=\"next\" value=\"\($0)\">" } ?? .empty
        return Layout.page(title: "Log in", viewer: nil, active: .none, body: """
            <div class="card narrow-card"><h1>Log in</h1>\(err)\
            <form method="post" action="/login">\(Layout.csrfField(csrf))\(nextField)\
            <label for="email">Email</label><input type="text" inputmode="email" id="email" name="email" value="\(email)" required autofocus autocomplete="username" spellcheck="false">\
            <label for="password">Password</label><input type="password" id="password" name="password" required autocomplete="current-password">\
            <p><button type="submit" class="primary">Log in</button></p></form></div>
            """)
    }

    public static func setup(email: String = "", errors: [String: String] = [:], csrf: String) -> HTML {
        func err(_ f: String) -> HTML { errors[f].map { "<p class=\"error-text\">\($0)</p>" } ?? .empty }
        return Layout.page(title: "Welcome", viewer: nil, active: .none, body: """
            <div class="card narrow-card"><h1>Welcome to aasa-monitor</h1>\
            <p>Create the first administrator account. You can add more users later under Settings.</p>\
            <form method="post" action="/setup">\(Layout.csrfField(csrf))\
            <label for="setup-code">Setup code <span class="hint">— printed in the server's log when it started</span></label>\
            <input type="text" id="setup-code" name="setup_code" required autocomplete="off" spellcheck="false">\(err("setup_code"))\
            <label for="email">Email</label><input type="text" inputmode="email" id="email" name="email" value="\(email)" required autofocus autocomplete="username" spellcheck="false">\(err("email"))\
            <label for="password">Password <span class="hint">— at least 10 characters</span></label>\
            <input type="password" id="password" name="password" required autocomplete="new-password">\(err("password"))\
            <label for="confirm">Repeat the password</label>\
            <input type="password" id="confirm" name="confirm" required autocomplete="new-password">\(err("confirm"))\
            <p><button type="submit" class="primary">Create the admin account</button></p></form></div>
            """)
    }

    public static func changePassword(viewer: Viewer, errors: [String: String] = [:]) -> HTML {
        func err(_ f: String) -> HTML { errors[f].map { "<p class=\"error-text\">\($0)</p>" } ?? .empty }
        return Layout.page(title: "Change password", viewer: viewer, active: .settings, body: """
            <div class="card narrow-card"><h1>Change your password</h1>\
            <p class="muted">Every other session of this account is logged out.</p>\
            <form method="post" action="/account/password">\(Layout.csrfField(viewer.csrf))\
            <label for="current">Current password</label><input type="password" id="current" name="current" required autocomplete="current-password">\(err("current"))\
            <label for="password">New password <span class="hint">— at least 10 characters</span></label>\
            <input type="password" id="password" name="password" required autocomplete="new-password">\(err("password"))\
            <label for="confirm">Repeat the new password</label>\
            <input type="password" id="confirm" name="confirm" required autocomplete="new-password">\(err("confirm"))\
            <p><button type="submit" class="primary">Change password</button></p></form></div>
            """)
    }

    /// A page for refusals and failures: what happened and what to do, never a stack trace.
    public static func problem(status: Int, title: String, message: String, viewer: Viewer?, requestID: String? = nil) -> HTML {
        let rid: HTML = requestID.map { "<p class=\"muted\">Request id <code>\($0)</code></p>" } ?? .empty
        return Layout.page(title: title, viewer: viewer, active: .none, body: """
            <div class="card narrow-card"><h1>\(title)</h1><p>\(message)</p>\(rid)<p><a href="/">Back to the domains</a></p></div>
            """)
    }
}
