import Foundation
import Notify
import Store
import Testing
import TestSupport
@testable import Web

/// The settings page writes exactly the keys the notifier reads: what is saved here is what
/// `NotificationSettings` hands to the mail sender and puts into links.
@Suite(.serialized) struct EmailSettingsTests {
    func form(url: String = "smtp://alerts:s3cret@mail.example.test:587", from: String = "alerts@example.test",
              startTLS: String = "required", ca: String = "/etc/ssl/company-ca.pem",
              base: String = "https://aasa.example.test/") -> [(String, String)] {
        [("smtp_url", url), ("smtp_from", from), ("smtp_starttls", startTLS), ("smtp_ca_file", ca), ("base_url", base)]
    }

    @Test func savedSettingsAreWhatTheNotifierReads() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
            client.setUpAdmin()
            let page = client.get("/settings").bodyText
            #expect(page.contains("action=\"/settings/email\""))
            #expect(client.post("/settings/email", form()).header("Location") == "/settings#email")
            #expect(client.get("/settings").bodyText.contains("Email and link settings saved"))

            #expect(try db.setting(NotificationSettings.Key.smtpURL) == "smtp://alerts:s3cret@mail.example.test:587")
            let mail = try #require(try NotificationSettings.mail(environment: [:], database: db))
            #expect(mail == MailSettings(url: "smtp://alerts:s3cret@mail.example.test:587", from: "alerts@example.test",
                                         startTLS: .required, caFile: "/etc/ssl/company-ca.pem"))
            // The trailing slash goes: links are BASE/domains/ID.
            #expect(try NotificationSettings.links(environment: [:], database: db).baseURL == "https://aasa.example.test")

            // The page shows the stored values, never the password; saving it back unchanged keeps it.
            let shown = client.get("/settings").bodyText
            #expect(!shown.contains("s3cret"))
            #expect(shown.contains("value=\"smtp://alerts:***@mail.example.test:587\""))
            #expect(shown.contains("<option value=\"required\" selected>"))
            #expect(client.post("/settings/email", form(url: "smtp://alerts:***@mail.example.test:587")).status == 303)
            #expect(try db.setting(NotificationSettings.Key.smtpURL) == "smtp://alerts:s3cret@mail.example.test:587")

            // Empty server and sender turn email off.
            #expect(client.post("/settings/email", form(url: "", from: "", ca: "", base: "")).status == 303)
            #expect(try NotificationSettings.mail(environment: [:], database: db) == nil)
            #expect(try NotificationSettings.links(environment: [:], database: db).baseURL == NotificationSettings.defaultBaseURL)
        }
    }

    @Test func refusesBadInputBesideTheFieldAndStoresNothing() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
            client.setUpAdmin()
            client.get("/settings")
            let cases: [([(String, String)], String, String)] = [
                (form(url: "http://mail.example.test"), "smtp_url", "not http://"),
                (form(url: "mail.example.test:587"), "smtp_url", "smtp://"),
                (form(url: "smtp://other:***@mail.example.test"), "smtp_url", "password again"),
                (form(from: "alerts@example.test\r\nBcc: victim@example.test"), "smtp_from", "one sender address"),
                (form(from: ""), "smtp_from", "both the server and the sender"),
                (form(startTLS: "sometimes"), "smtp_starttls", "offered STARTTLS modes"),
                (form(ca: "company-ca.pem"), "smtp_ca_file", "absolute path"),
                (form(base: "javascript:alert(1)"), "base_url", "dashboard's address"),
            ]
            for (fields, field, message) in cases {
                let r = client.post("/settings/email", fields)
                #expect(r.status == 422, "\(field)")
                #expect(r.bodyText.contains(HTML.escape(message)), "\(field): \(message)")
                #expect(!r.bodyText.contains("s3cret"), "the typed password is not echoed")
            }
            for key in [NotificationSettings.Key.smtpURL, NotificationSettings.Key.smtpFrom, NotificationSettings.Key.smtpStartTLS,
                        NotificationSettings.Key.smtpCAFile, NotificationSettings.Key.baseURL] {
                #expect(try db.setting(key) == nil, "\(key)")
            }
            // No CSRF token, no change; and GET never changes anything.
            #expect(client.post("/settings/email", form(), csrf: .some(nil)).status == 403)
            #expect(client.get("/settings/email").status == 405)
            #expect(try db.setting(NotificationSettings.Key.smtpURL) == nil)
        }
    }

    @Test func readOnlyUsersSeeButCannotChange() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let admin = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
            admin.setUpAdmin()
            admin.get("/settings")
            #expect(admin.post("/settings/email", form()).status == 303)
            admin.get("/settings")
            // A role the form does not offer is refused, not quietly made read-only.
            #expect(admin.post("/users", [("email", "viewer@example.test"), ("password", "viewer passphrase"), ("role", "read-only")]).status == 422)
            #expect(admin.post("/users", [("email", "viewer@example.test"), ("password", "viewer passphrase"), ("role", "viewer")]).status == 303)
            let viewer = WebClient(app: admin.app)
            #expect(viewer.logIn(email: "viewer@example.test", password: "viewer passphrase").status == 303)
            let page = viewer.get("/settings").bodyText
            #expect(!page.contains("action=\"/settings/email\""))
            #expect(page.contains("smtp://alerts:***@mail.example.test:587"))
            #expect(!page.contains("s3cret"))
            #expect(viewer.post("/settings/email", form(url: "smtp://evil.example.test")).status == 403)
            #expect(try db.setting(NotificationSettings.Key.smtpURL) == "smtp://alerts:s3cret@mail.example.test:587")
        }
    }
}
