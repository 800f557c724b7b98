import Vocabulary

/// One domain to register from an import file, before its host is validated.
public struct DomainListEntry: Hashable, Sendable {
    /// 1-based line number in the file, for messages.
    public var line: Int
    public var host: String
    /// Required app IDs per service, from the CSV columns after the host.
    public var appIDs: [Service: [AppID]] = [:]
    /// The domain's own Android apps, from `android:PACKAGE=FINGERPRINT[;FINGERPRINT…]` columns.
    public var androidApps: [AndroidAppColumn] = []
    /// Watched URLs from `url:URL EXPECT [android=PACKAGE|nothing]` columns, as typed: the registry
    /// checks them by the form's rules (the URL must be on the domain), which need the host.
    public var watchedURLs: [WatchedURLEntry] = []
}

/// An Android app from an import line, checked by the form's rules (`AndroidPackage`,
/// `CertificateFingerprint`): its package and the fingerprints, in the one stored form, sorted.
public struct AndroidAppColumn: Hashable, Sendable {
    public var package: AndroidPackage
    public var fingerprints: [CertificateFingerprint]
    /// Those marked `=upload` (also among `fingerprints`).
    public var uploadKeys: [CertificateFingerprint] = []
}

/// A line of an import file that cannot become a registration, and why.
public struct DomainListRefusal: Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var text: String
    public var reason: String

    public var description: String { "line \(line): \(text): \(reason)" }
}
