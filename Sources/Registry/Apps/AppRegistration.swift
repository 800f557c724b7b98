import Store
import Vocabulary

/// An app as the form, the API or the CLI gave it: text as typed, checked by `AppRegistry`.
public struct AppRegistration: Sendable, Equatable {
    /// Empty: named after the first Apple bundle ID or the Android package.
    public var name: String
    /// `TEAMID.bundle.id` per Apple variant.
    public var appleAppIDs: [String]
    /// Empty: no Android app.
    public var androidPackage: String
    public var fingerprints: [FingerprintEntry]
    /// Associated Domains entries as the entitlement writes them (`applinks:example.com`,
    /// `webcredentials:*.example.com?mode=developer`), one per element.
    public var appleDomains: [String]
    /// Hosts Android verifies (`example.com`, `*.example.com`), one per element.
    public var androidHosts: [String]
    /// URLs that must open the app, each on a domain the app claims: on Apple and on Android.
    public var watchedURLs: [String]
    /// URLs that must open the app on Android only, not judged on Apple: an AndroidManifest.xml's
    /// paths, written back as typed entries.
    public var androidWatchedURLs: [String]

    public init(name: String = "", appleAppIDs: [String] = [], androidPackage: String = "", fingerprints: [FingerprintEntry] = [],
                appleDomains: [String] = [], androidHosts: [String] = [], watchedURLs: [String] = [], androidWatchedURLs: [String] = []) {
        self.name = name
        self.appleAppIDs = appleAppIDs
        self.androidPackage = androidPackage
        self.fingerprints = fingerprints
        self.appleDomains = appleDomains
        self.androidHosts = androidHosts
        self.watchedURLs = watchedURLs
        self.androidWatchedURLs = androidWatchedURLs
    }
}

extension AppRegistration {
    /// A stored app written back as typed entries (the form, the API's PATCH, the config file's
    /// export), so planning them again gives the same app: Apple links as the entitlement entry they
    /// came from, Android links as hosts, each once in link order.
    init(_ app: AppRecord, links: [AppLinkRecord], watchedURLs: [AppWatchedURLRecord]) {
        var appleDomains: [String] = [], androidHosts: [String] = []
        for link in links {
            switch link.platform {
            case .apple:
                // Links are stored with the entry as written; a link from before that has none gets
                // the entry its fields spell (an entitlement entry has at most one mode).
                let mode = link.developerMode ? "?mode=developer" : link.managedMode ? "?mode=managed" : ""
                let written = link.declaredAs.isEmpty ? "\(link.service.rawValue):\(link.displayHost)\(mode)" : link.declaredAs
                if !appleDomains.contains(written) { appleDomains.append(written) }
            case .android:
                if !androidHosts.contains(link.displayHost) { androidHosts.append(link.displayHost) }
            }
        }
        self.init(name: app.name, appleAppIDs: app.appleAppIDs, androidPackage: app.androidPackage ?? "",
                  fingerprints: app.fingerprints.map { FingerprintEntry(fingerprint: $0.fingerprint, role: $0.role.rawValue) },
                  appleDomains: appleDomains, androidHosts: androidHosts,
                  watchedURLs: watchedURLs.filter { $0.platforms != .android }.map(\.url),
                  androidWatchedURLs: watchedURLs.filter { $0.platforms == .android }.map(\.url))
    }
}

/// A field of an `AppRegistration` or an import, so a refusal is shown beside it (form), named in the
/// JSON error (API) or printed (CLI). Line numbers are 1-based, of the field's text or file.
public enum AppField: Hashable, Sendable {
    case name
    case appleAppID(Int)
    case androidPackage
    case fingerprint(Int)
    /// An Associated Domains entry typed in the form (line), or the entitlements file's.
    case appleDomains(line: Int?)
    case androidHost(Int)
    case watchedURL(Int)
    /// A URL watched on Android only (`androidWatchedURLs`).
    case androidWatchedURL(Int)
    /// The uploaded or pasted entitlements file (line, when the format has lines).
    case entitlementsFile(line: Int?)
    /// The uploaded or pasted AndroidManifest.xml.
    case manifestFile(line: Int?)
    /// The app as a whole (it names no platform, claims no domain).
    case app

    /// The API's name of the field (`apple_app_ids[1]`, `entitlements` line 4 is reported apart).
    public var jsonName: String {
        switch self {
        case .name: "name"
        case .appleAppID(let i): "apple_app_ids[\(i)]"
        case .androidPackage: "android_package"
        case .fingerprint(let i): "fingerprints[\(i)]"
        case .appleDomains: "apple_domains"
        case .androidHost(let i): "android_hosts[\(i)]"
        case .watchedURL(let i): "watched_urls[\(i)]"
        case .androidWatchedURL(let i): "android_watched_urls[\(i)]"
        case .entitlementsFile: "entitlements"
        case .manifestFile: "manifest"
        case .app: "app"
        }
    }
}

/// One reason an app was not saved.
public struct AppProblem: Hashable, Sendable, CustomStringConvertible {
    public var field: AppField
    public var reason: String

    public init(_ field: AppField, _ reason: String) {
        self.field = field
        self.reason = reason
    }

    /// "line 4: …" where the field has a line.
    public var description: String {
        switch field {
        case .appleDomains(let line?), .entitlementsFile(let line?), .manifestFile(let line?): "line \(line): \(reason)"
        default: reason
        }
    }
}

/// Why an app was not saved. Every problem comes at once, so a person fixes them in one round trip;
/// nothing of a refused app is written.
public enum AppRegistrationError: Error, Equatable, Sendable {
    case invalid([AppProblem])
    case nameTaken(id: Int64, name: String)
    case noSuchApp

    public var problems: [AppProblem] {
        switch self {
        case .invalid(let problems): problems
        case .nameTaken(_, let name): [AppProblem(.name, "An app named \"\(name)\" is already registered.")]
        case .noSuchApp: [AppProblem(.app, "No app with this id; it may have been deleted.")]
        }
    }
}
