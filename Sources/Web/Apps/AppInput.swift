import Foundation
import Registry

/// The app form's fields as typed, to and from a `FormData`: the text areas hold one entry per line;
/// the files are pasted text, an uploaded file (the form posts multipart/form-data, so no script is
/// needed), or what the page's script read from one; a binary file travels on as `base64:` + the
/// bytes, so the preview's hidden fields carry it to the confirmation.
struct AppFormFields: Sendable, Equatable {
    var name = ""
    var appleAppIDs = ""
    var androidPackage = ""
    /// One per line: a fingerprint, optionally followed by its key (`app-signing`, `upload`, `other`).
    var fingerprints = ""
    var appleDomains = ""
    var androidHosts = ""
    var watchedURLs = ""
    /// One per line: URLs watched on Android only (an edited app's manifest paths come back here).
    var androidWatchedURLs = ""
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
        androidWatchedURLs = r.androidWatchedURLs.joined(separator: "\n")
    }

    init(_ form: FormData) {
        name = form["name"] ?? ""
        appleAppIDs = form["apple_app_ids"] ?? ""
        androidPackage = form["android_package"] ?? ""
        fingerprints = form["fingerprints"] ?? ""
        appleDomains = form["apple_domains"] ?? ""
        androidHosts = form["android_hosts"] ?? ""
        watchedURLs = form["watched_urls"] ?? ""
        androidWatchedURLs = form["android_watched_urls"] ?? ""
        // A chosen file wins over the text area (the page's script may have copied it there too).
        entitlements = form.file("entitlements_file").map { Self.carried($0.bytes) } ?? form["entitlements"] ?? ""
        manifest = form.file("manifest_file").map { Self.carried($0.bytes) } ?? form["manifest"] ?? ""
    }

    /// An uploaded file as the text field carries it: UTF-8 text as it is (an XML plist, a manifest:
    /// shown in the text area if the form comes back), anything else as `base64:` and its bytes.
    static func carried(_ bytes: [UInt8]) -> String {
        if !bytes.starts(with: Array("bplist".utf8)), !bytes.contains(0), let text = String(validating: bytes, as: UTF8.self) { return text.replacingCRLF() }
        return "base64:" + Data(bytes).base64EncodedString()
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
            appleDomains: Self.lines(appleDomains), androidHosts: Self.lines(androidHosts), watchedURLs: Self.lines(watchedURLs),
            androidWatchedURLs: Self.lines(androidWatchedURLs))
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
         ("android_watched_urls", androidWatchedURLs), ("entitlements", entitlements), ("manifest", manifest)]
            .map { "<input type=\"hidden\" name=\"\($0.0)\" value=\"\($0.1)\">" as HTML }.joined()
    }
}
