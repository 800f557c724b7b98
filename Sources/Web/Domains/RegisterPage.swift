import Vocabulary
import Registry

/// What a watched URL is expected to do on a device.
public enum WatchedOutcome: Sendable, Equatable, Codable {
    /// Opens this app.
    case opens(String)
    /// Stays in the browser (no app claims it).
    case staysInBrowser

    /// The form's text: an app ID or "browser".
    public var formValue: String {
        if case .opens(let app) = self { return app }
        return "browser"
    }
}

/// The register/edit form as typed, with a message per field that was refused.
public struct RegisterFormModel: Sendable {
    public var host: String = ""
    /// One entry per row: a domain's app IDs, or every row as sent (empty ones too) when a submit was refused.
    public var appIDs: [(service: Service, appID: String)] = []
    public var watched: [(url: String, expect: String, android: String)] = []
    /// Android apps the domain must verify: package and fingerprints as typed.
    public var android: [(package: String, fingerprints: String)] = []
    public var intervalMinutes: Int = 60
    public var badge: Bool = false
    public var platforms: WatchedPlatforms = .both
    /// Field name → message. Field names: `host`, `appid.N`, `url.N`, `expect.N`, `interval`, `form`.
    public var errors: [String: String] = [:]
    /// nil when registering; the domain id when editing.
    public var editing: Int64?

    public init() {}

    /// The registry's offered intervals: the form offers exactly what `DomainRegistry` accepts.
    public static var intervals: [(minutes: Int, label: String)] { Registration.offeredIntervals }
}

public enum RegisterPage {
    public static func render(_ m: RegisterFormModel, viewer: Viewer) -> HTML {
        func error(_ field: String) -> HTML {
            guard let message = m.errors[field] else { return .empty }
            return "<p class=\"error-text\" id=\"err-\(field)\">\(message)</p>"
        }
        func cls(_ field: String) -> HTML { m.errors[field] != nil ? " class=\"field-error\"" : .empty }
        func described(_ field: String) -> HTML {
            m.errors[field] != nil ? " aria-invalid=\"true\" aria-describedby=\"err-\(field)\"" : .empty
        }
        // Keep what was typed, plus an empty row to fill when every row is filled.
        var appRows = m.appIDs
        if appRows.isEmpty {
            appRows = [(.applinks, ""), (.webcredentials, "")]
        } else if !appRows.contains(where: { $0.appID.isEmpty }) {
            appRows.append((.applinks, ""))
        }
        var apps: HTML = .empty
        for (i, row) in appRows.enumerated() {
            var options: HTML = .empty
            for s in Service.allCases {
                let sel: HTML = s == row.service ? " selected" : ""
                options.append("<option value=\"\(s.rawValue)\"\(sel)>\(s.label)</option>")
            }
            apps.append("""
                <div\(cls("appid.\(i)"))><div class="row-inputs">\
                <input type="text" name="appid" value="\(row.appID)" placeholder="ABCDE12345.com.example.app" \
                aria-label="App ID \(i + 1)"\(described("appid.\(i)"))>\
                <select name="service" aria-label="Service for app ID \(i + 1)">\(options)</select></div>\(error("appid.\(i)"))</div>
                """)
        }
        var urlRows = m.watched
        urlRows.append(("", "", ""))
        var urls: HTML = .empty
        for (i, row) in urlRows.enumerated() {
            urls.append("""
                <div\(cls("url.\(i)"))><div class="row-inputs">\
                <input type="text" name="url" value="\(row.url)" placeholder="https://example.com/product/42" \
                aria-label="Watched URL \(i + 1)"\(described("url.\(i)"))>\
                <input type="text" name="expect" value="\(row.expect)" placeholder="app ID, or browser" \
                aria-label="Expected outcome for URL \(i + 1)"\(described("expect.\(i)"))>\
                <input type="text" name="android_expect" value="\(row.android)" placeholder="Android: as Apple, a package, or nothing" \
                aria-label="Expected outcome on Android for URL \(i + 1)"\(described("android_expect.\(i)"))></div>\
                \(error("url.\(i)"))\(error("expect.\(i)"))\(error("android_expect.\(i)"))</div>
                """)
        }
        var androidRows = m.android
        androidRows.append(("", ""))
        var android: HTML = .empty
        for (i, row) in androidRows.enumerated() {
            let refused = m.errors["package.\(i)"] != nil || m.errors["fingerprints.\(i)"] != nil
            let rowClass: HTML = refused ? " class=\"field-error\"" : .empty
            android.append("""
                <div\(rowClass)><div class="row-inputs">\
                <input type="text" name="package" value="\(row.package)" placeholder="com.example.app" \
                aria-label="Android package \(i + 1)"\(described("package.\(i)"))>\
                <input type="text" name="fingerprints" value="\(row.fingerprints)" placeholder="AA:BB:… (SHA-256; several separated by spaces; AA:BB:…=upload for an upload key)" \
                aria-label="Signing-key fingerprints for Android package \(i + 1)"\(described("fingerprints.\(i)"))></div>\
                \(error("package.\(i)"))\(error("fingerprints.\(i)"))</div>
                """)
        }
        var intervals: HTML = .empty
        for (minutes, label) in RegisterFormModel.intervals {
            let sel: HTML = minutes == m.intervalMinutes ? " selected" : ""
            intervals.append("<option value=\"\(minutes)\"\(sel)>\(label)</option>")
        }
        var platformOptions: HTML = .empty
        for choice in WatchedPlatforms.allCases {
            let sel: HTML = choice == m.platforms ? " selected" : ""
            platformOptions.append("<option value=\"\(choice.rawValue)\"\(sel)>\(choice.label)</option>")
        }
        let badgeChecked: HTML = m.badge ? " checked" : ""
        let title = m.editing == nil ? "Add a domain" : "Edit " + m.host
        let action: HTML = m.editing.map { "/domains/\($0)/edit" } ?? "/domains"
        let hostField: HTML = m.editing == nil
            ? """
              <div\(cls("host"))><label for="host">Host <span class="hint">— Unicode or Punycode; \
              <code>*.example.com</code> for a wildcard</span></label>\
              <input type="text" id="host" name="host" value="\(m.host)" required autocomplete="off" \
              placeholder="example.com" autofocus\(described("host"))>\(error("host"))</div>
              """
            : "<p>Host: <strong>\(m.host)</strong></p>"
        let body: HTML = """
            <h1>\(title)</h1>\(error("form"))
            <form method="post" action="\(action)" class="card" novalidate>\(Layout.csrfField(viewer.csrf))\
            \(hostField)
            <fieldset><legend>App IDs that must be present</legend>\
            <p class="hint">Team ID, a dot, then the bundle ID: <code>ABCDE12345.com.example.app</code>. \
            Leave rows empty that you do not need.</p><div id="app-rows">\(apps)</div>\
            <button type="button" class="link" data-add-row="app-rows" hidden>+ Add another app ID</button></fieldset>
            <fieldset><legend>Watched URLs</legend>\
            <p class="hint">A URL on this host and what should happen when it is tapped: an app ID that must \
            open it, or <code>browser</code> if no app should.</p><div id="url-rows">\(urls)</div>\
            <button type="button" class="link" data-add-row="url-rows" hidden>+ Add another URL</button></fieldset>
            <fieldset><legend>Android apps that must be verified</legend>\
            <p class="hint">A package and the SHA-256 fingerprints of its signing keys; assetlinks.json must grant one of them \
            <code>handle_all_urls</code>. Apps registered under Apps add their own.</p><div id="android-rows">\(android)</div>\
            <button type="button" class="link" data-add-row="android-rows" hidden>+ Add another Android app</button></fieldset>
            <div\(cls("interval"))><label for="interval">Check frequency</label>\
            <select id="interval" name="interval">\(intervals)</select>\(error("interval"))</div>
            <div\(cls("platforms"))><label for="platforms">Platforms <span class="hint">— Apple's \
            apple-app-site-association, Android's assetlinks.json, or both (Android counts only where the site \
            serves the file or an Android app is expected)</span></label>\
            <select id="platforms" name="platforms"\(described("platforms"))>\(platformOptions)</select>\(error("platforms"))</div>
            <label class="hint"><input type="checkbox" name="badge" value="on"\(badgeChecked)> \
            Publish a status badge at <code>/badge/HOST.svg</code></label>
            <p><button type="submit" class="primary">\(m.editing == nil ? "Register and check now" : "Save changes")</button> \
            <a class="button" href="\(m.editing.map { "/domains/\($0)" } ?? "/")">Cancel</a></p>
            </form>
            """
        return Layout.page(title: title, viewer: viewer, active: m.editing == nil ? .register : .overview, body: body)
    }
}
