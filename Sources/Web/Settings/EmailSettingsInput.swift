import Foundation
import Notify

/// The settings page's "Email and links" form: what the notifier reads from the `settings` table
/// (`NotificationSettings.Key`), checked field by field so a mistake is named beside its field.
struct EmailSettingsInput: Sendable, Equatable {
    var smtpURL = ""
    var smtpFrom = ""
    var startTLS = MailSettings.StartTLS.whenOffered
    var caFile = ""
    var baseURL = ""

    /// The stored values, with the SMTP password replaced by `***` for display.
    static func stored(_ read: (String) throws -> String?) rethrows -> EmailSettingsInput {
        var input = EmailSettingsInput()
        input.smtpURL = try read(NotificationSettings.Key.smtpURL).map(redacted) ?? ""
        input.smtpFrom = try read(NotificationSettings.Key.smtpFrom) ?? ""
        input.startTLS = try read(NotificationSettings.Key.smtpStartTLS).flatMap(MailSettings.StartTLS.init(rawValue:)) ?? .whenOffered
        input.caFile = try read(NotificationSettings.Key.smtpCAFile) ?? ""
        input.baseURL = try read(NotificationSettings.Key.baseURL) ?? ""
        return input
    }

    static func redacted(_ url: String) -> String {
        url.contains("@") ? MailSettings(url: url, from: "").redactedURL : url
    }

    /// Validates the posted form. `storedURL` is the full stored SMTP URL: a URL posted back
    /// unchanged in its redacted form keeps the stored password (the page never shows it).
    /// Returns the key → value pairs to store, or the field → message refusals.
    static func validate(form: FormData, storedURL: String?) -> (values: [(key: String, value: String)]?, typed: EmailSettingsInput,
                                                                   errors: [String: String]) {
        func field(_ name: String) -> String { (form[name] ?? "").trimmingCharacters(in: .whitespacesAndNewlines) }
        var typed = EmailSettingsInput(smtpURL: field("smtp_url"), smtpFrom: field("smtp_from"), caFile: field("smtp_ca_file"),
                                       baseURL: field("base_url"))
        var errors: [String: String] = [:]
        if let mode = MailSettings.StartTLS(rawValue: field("smtp_starttls")) {
            typed.startTLS = mode
        } else {
            errors["smtp_starttls"] = "Choose one of the offered STARTTLS modes."
        }

        var url = typed.smtpURL
        if let storedURL, url == redacted(storedURL) { url = storedURL }
        if url.contains(":***@") {
            // The redacted form of a URL that is not the stored one: the password was never typed.
            errors["smtp_url"] = "Type the server's password again (it is shown as *** and was not kept)."
        } else if !url.isEmpty {
            let parsed = URLComponents(string: url)
            if url.contains(where: { $0.isWhitespace || $0.isNewline }) || parsed == nil {
                errors["smtp_url"] = "This is not a URL. Use smtp://host:587 or smtps://host:465 (user:password@ before the host if the server needs a login)."
            } else if let scheme = parsed?.scheme?.lowercased(), scheme != "smtp" && scheme != "smtps" {
                errors["smtp_url"] = "Use an smtp:// or smtps:// URL, not \(scheme)://."
            } else if parsed?.scheme == nil || (parsed?.host ?? "").isEmpty {
                errors["smtp_url"] = "Give the mail server's address, e.g. smtp://mail.example.com:587."
            }
        }
        if !typed.smtpFrom.isEmpty {
            // Goes into a mail header: one address, nothing that could start another header.
            let parts = typed.smtpFrom.split(separator: "@", omittingEmptySubsequences: false)
            if parts.count != 2 || parts.contains(where: \.isEmpty) || typed.smtpFrom.contains(where: { $0.isWhitespace || $0 == "<" || $0 == ">" || $0 == "," }) {
                errors["smtp_from"] = "Give one sender address, e.g. alerts@example.com."
            }
        }
        if url.isEmpty != typed.smtpFrom.isEmpty {
            let missing = url.isEmpty ? "smtp_url" : "smtp_from"
            errors[missing] = errors[missing] ?? "Email needs both the server and the sender address (or neither, to turn email off)."
        }
        if !typed.caFile.isEmpty, !typed.caFile.hasPrefix("/") || typed.caFile.contains(where: \.isNewline) {
            errors["smtp_ca_file"] = "Give the absolute path of a PEM file on the server, e.g. /etc/ssl/company-ca.pem, or leave it empty."
        }
        if !typed.baseURL.isEmpty {
            let parsed = URLComponents(string: typed.baseURL)
            let scheme = parsed?.scheme?.lowercased()
            if parsed == nil || (scheme != "http" && scheme != "https") || (parsed?.host ?? "").isEmpty
                || parsed?.query != nil || parsed?.fragment != nil {
                errors["base_url"] = "Give the dashboard's address as people open it, e.g. https://aasa.example.com."
            } else {
                // Links are built as BASE + "/domains/…".
                while typed.baseURL.hasSuffix("/") { typed.baseURL.removeLast() }
            }
        }
        guard errors.isEmpty else {
            // The form comes back without the password it may contain: secrets are not echoed into pages.
            typed.smtpURL = redacted(typed.smtpURL)
            return (nil, typed, errors)
        }
        return ([(NotificationSettings.Key.smtpURL, url), (NotificationSettings.Key.smtpFrom, typed.smtpFrom),
                 (NotificationSettings.Key.smtpStartTLS, typed.startTLS.rawValue), (NotificationSettings.Key.smtpCAFile, typed.caFile),
                 (NotificationSettings.Key.baseURL, typed.baseURL)], typed, errors)
    }
}
