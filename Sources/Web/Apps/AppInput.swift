import Foundation
import Registry

/// The app form's fields as typed, to and from a `FormData`: the text areas hold one entry per line;
/// the files are pasted text, or what the page's script read from an uploaded file
/// (`base64:` + the bytes, for a binary property list).
struct AppFormFields: Sendable, Equatable {
    var name = ""
    var appleAppIDs = ""
    var androidPackage = ""
    /// One per line: a fingerprint, optionally followed by its key (`app-signing`, `upload`, `other`).
    var fingerprints = ""
    var appleDomains = ""
    var androidHosts = ""
    var watchedURLs = ""
    var entitlements = ""
    var manifest = ""

    init() {}

    /// The stored app's entries, one per line, for the edit form.
    init(_ r: AppRegistration) {
        name = r.name
        appleAppIDs = r.appleAppIDs.joined(separator: "\n")
        androidPackage = r.androidPackage
        fingerprints = r.fingerprints.map { "\($0.fingerprint) \($0.role)" }.joined(separator: "\n")
        appleDomains = r.appleDomains.joined(separator: "\n")
        androidHosts = r.androidHosts.joined(separator: "\n")
        watchedURLs = r.watchedURLs.joined(separator: "\n")
    }

    init(_ form: FormData) {
        name = form["name"] ?? ""
        appleAppIDs = form["apple_app_ids"] ?? ""
        androidPackage = form["android_package"] ?? ""
        fingerprints = form["fingerprints"] ?? ""
        appleDomains = form["apple_domains"] ?? ""
        androidHosts = form["android_hosts"] ?? ""
        watchedURLs = form["watched_urls"] ?? ""
        entitlements = form["entitlements"] ?? ""
        manifest = form["manifest"] ?? ""
    }

    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    var registration: AppRegistration {
        AppRegistration(
            name: name, appleAppIDs: Self.lines(appleAppIDs), androidPackage: androidPackage,
            fingerprints: Self.lines(fingerprints).map { line in
                let parts = line.split(separator: " ", omittingEmptySubsequences: true)
                return .init(fingerprint: parts.first.map(String.init) ?? "", role: parts.count > 1 ? String(parts[1]) : "app-signing")
            },
            appleDomains: Self.lines(appleDomains), androidHosts: Self.lines(androidHosts), watchedURLs: Self.lines(watchedURLs))
    }

    /// A pasted or uploaded file's bytes; nil when the field is empty. Throws for `base64:` that is not.
    static func fileBytes(_ text: String) throws -> [UInt8]? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        if trimmed.hasPrefix("base64:") {
            guard let data = Data(base64Encoded: String(trimmed.dropFirst(7)), options: .ignoreUnknownCharacters) else {
                throw WebError.badRequest("The uploaded file could not be read; paste its text instead.")
            }
            return Array(data)
        }
        return Array(text.utf8)
    }

    /// Every field as hidden inputs, so the preview's "Register" button posts exactly what was previewed.
    var hiddenFields: HTML {
        [("name", name), ("apple_app_ids", appleAppIDs), ("android_package", androidPackage), ("fingerprints", fingerprints),
         ("apple_domains", appleDomains), ("android_hosts", androidHosts), ("watched_urls", watchedURLs),
         ("entitlements", entitlements), ("manifest", manifest)]
            .map { "<input type=\"hidden\" name=\"\($0.0)\" value=\"\($0.1)\">" as HTML }.joined()
    }
}
