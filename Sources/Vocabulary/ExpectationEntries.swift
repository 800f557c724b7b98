/// An expected app ID as typed (the form, the API, an import, a config file), before the registry
/// checks it (`AppID`, `Service`): one type from every way in to `DomainRegistry`. Encodable: the API
/// reads a domain's entries back in this form (`app_id` through `PublicJSON`), ready to be sent again.
public struct AppIDEntry: Sendable, Equatable, Encodable {
    /// A service name (applinks, webcredentials, appclips, activitycontinuation).
    public var service: String
    public var appID: String
    public init(service: String, appID: String) {
        self.service = service
        self.appID = appID
    }
}

/// A watched URL as typed, before the registry checks it (and as the API reads it back).
public struct WatchedURLEntry: Sendable, Hashable, Encodable {
    public var url: String
    /// An app ID the URL must open, or "browser" (or nothing) when it must stay in the browser.
    public var expect: String
    /// What it must do on Android when stated apart from `expect`: a package name, or "nothing" (or
    /// "browser"); nil or empty: derived from `expect` (`AndroidURLExpectation`).
    public var android: String?
    public init(url: String, expect: String, android: String? = nil) {
        self.url = url
        self.expect = expect
        self.android = android
    }
}

/// A signing-key fingerprint of an Android app as typed, with its role, before the registry checks
/// it (`CertificateFingerprint`, `SigningKeyRole`).
public struct FingerprintEntry: Sendable, Equatable {
    public var fingerprint: String
    /// `app-signing` (the default), `upload` or `other`.
    public var role: String
    public init(fingerprint: String, role: String = SigningKeyRole.appSigning.rawValue) {
        self.fingerprint = fingerprint
        self.role = role
    }
}

/// An Android app a domain must verify, as typed (the form, the API, a config file), before the
/// registry checks it (`AndroidPackage`, `CertificateFingerprint`): a package and the SHA-256
/// fingerprints of which one must be granted `handle_all_urls`, each as typed (lower case and bare
/// hex accepted; stored in the one form). The API reads a domain's apps back in this form.
public struct AndroidAppEntry: Sendable, Equatable, Encodable {
    public var package: String
    public var fingerprints: [String]
    /// Upload keys (Play App Signing re-signs with Google's key): listed apart, or also among
    /// `fingerprints`; a file that grants only these is named as the upload-key-only mistake.
    public var uploadKeys: [String]
    public init(package: String, fingerprints: [String], uploadKeys: [String] = []) {
        self.package = package
        self.fingerprints = fingerprints
        self.uploadKeys = uploadKeys
    }

    /// The form's one text box: fingerprints separated by spaces, commas or new lines, an upload key
    /// marked `=upload` (as `app import --fingerprint FP=upload`).
    public init(package: String, typedFingerprints: String) {
        var fingerprints: [String] = [], uploadKeys: [String] = []
        for word in typedFingerprints.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\n" || $0 == "\r" || $0 == "\t" }) {
            if word.lowercased().hasSuffix(Self.uploadMark) { uploadKeys.append(String(word.dropLast(Self.uploadMark.count))) } else { fingerprints.append(String(word)) }
        }
        self.init(package: package, fingerprints: fingerprints, uploadKeys: uploadKeys)
    }

    /// How the form's text box (and an import column) marks an upload key.
    public static let uploadMark = "=upload"
}
