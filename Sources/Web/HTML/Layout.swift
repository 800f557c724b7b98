import Store
/// Who is looking at a page, as the layout needs it.
public struct Viewer: Sendable {
    public var userID: Int64
    public var email: String
    public var role: Role
    /// The CSRF token every form on the page carries.
    public var csrf: String

    public var canChange: Bool { role.canChange }
}

public enum NavItem: String, Sendable {
    case overview, apps, register, tester, alerts, settings, none
}

/// The frame every page shares: header with navigation, a flash message, the page, a footer.
/// Styles and the script are files under /static, so the CSP can forbid inline code.
public enum Layout {
    public static func page(title: String, viewer: Viewer?, active: NavItem, flash: Flash? = nil, body: HTML) -> HTML {
        documentStart(title: title) + navigation(viewer, active: active) + documentEnd(flash: flash, body: body)
    }

    /// A page rendered once for many viewers (see `SharedPage`).
    static func shared(title: String, active: NavItem, flash: Flash? = nil, body: HTML) -> SharedPage {
        SharedPage(start: documentStart(title: title).utf8Bytes, active: active, end: documentEnd(flash: flash, body: body).utf8Bytes)
    }

    /// Everything before the per-user navigation.
    static func documentStart(title: String) -> HTML {
        """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">\
            <meta name="viewport" content="width=device-width, initial-scale=1">\
            <meta name="color-scheme" content="light dark">\
            <title>\(title) · aasa-monitor</title>\
            <link rel="stylesheet" href="/static/css/app.css">\
            <link rel="icon" href="/static/favicon.svg" type="image/svg+xml">\
            <script src="/static/js/app.js" defer></script></head>
            <body><header class="top"><a class="brand" href="/"><span class="logo" aria-hidden="true"></span>aasa-monitor</a>
            """
    }

    /// The per-user part: main navigation, who is signed in, and the logout form with their CSRF token.
    static func navigation(_ viewer: Viewer?, active: NavItem) -> HTML {
        guard let viewer else { return .empty }
        func item(_ n: NavItem, _ href: HTML, _ label: HTML) -> HTML {
            n == active ? "<a href=\"\(href)\" aria-current=\"page\">\(label)</a>" : "<a href=\"\(href)\">\(label)</a>"
        }
        let register: HTML = viewer.canChange ? item(.register, "/domains/new", "Add domain") : .empty
        // On a narrow screen the menu folds behind a "Menu" button: a checkbox and its label, so it
        // opens without JavaScript (app.css shows `.menu` while the box is checked).
        return """
            <input type="checkbox" id="menu-toggle" class="menu-toggle" aria-controls="menu">\
            <label for="menu-toggle" class="menu-button">Menu</label><div class="menu" id="menu">\
            <nav class="main-nav" aria-label="Main">\(item(.overview, "/", "Domains"))\(item(.apps, "/apps", "Apps"))\(register)\
            \(item(.tester, "/tester", "URL tester"))\(item(.alerts, "/alerts", "Alerts"))\
            \(item(.settings, "/settings", "Settings"))</nav>\
            <div class="account"><span class="muted">\(viewer.email)</span>\
            <span class="role role-\(viewer.role.rawValue)">\(viewer.role.label)</span>\
            <form method="post" action="/logout" class="inline">\(csrfField(viewer.csrf))\
            <button class="link" type="submit">Log out</button></form></div></div>
            """
    }

    /// Everything after the per-user navigation.
    static func documentEnd(flash: Flash?, body: HTML) -> HTML {
        let flashHTML: HTML = flash.map { f in "<div class=\"flash flash-\(f.kind.rawValue)\" role=\"status\">\(f.message)</div>" } ?? .empty
        return """
            </header>
            <main>\(flashHTML)\(body)</main>
            <footer class="foot muted">aasa-monitor watches Apple's apple-app-site-association and Android's assetlinks.json files. \
            <a href="/api/v1/openapi.json">API</a> · <a href="/metrics">Metrics</a></footer>
            </body></html>
            """
    }

    public static func csrfField(_ token: String) -> HTML {
        "<input type=\"hidden\" name=\"csrf\" value=\"\(token)\">"
    }
}

public struct Flash: Sendable {
    public enum Kind: String, Sendable { case success, error, info }
    public var kind: Kind
    public var message: String
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
}

/// A page rendered once and shown to many viewers: the bytes before and after the header's per-user
/// navigation (email, role, the logout form's CSRF token), which `bytes(for:)` renders per request,
/// so nothing of one user's can reach another's page through a cache.
struct SharedPage: Sendable {
    let start: [UInt8]
    let active: NavItem
    let end: [UInt8]

    /// The page for `viewer` as three pieces; the shared ones are not copied.
    func parts(for viewer: Viewer) -> [[UInt8]] {
        [start, Layout.navigation(viewer, active: active).utf8Bytes, end]
    }
}
