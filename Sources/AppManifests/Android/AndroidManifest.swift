/// What an `AndroidManifest.xml` says about an app's web links: its package and the intent filters
/// that take http(s) URLs, with the hosts Android verifies through assetlinks.json.
public struct AndroidManifest: Hashable, Sendable {
    /// `<manifest package=…>`; nil in a source manifest of a project whose Gradle file sets the
    /// application ID instead (the merged manifest has it).
    public var package: String?
    /// Every intent filter with the VIEW action, the BROWSABLE category and an http(s) scheme, in
    /// document order.
    public var webFilters: [WebIntentFilter]

    /// The hosts Android verifies (assetlinks-spec.md §2.5): those of filters with
    /// `android:autoVerify="true"`, each once, in document order.
    public var verifiedHosts: [ManifestHost] { hosts { $0.autoVerify } }

    /// Hosts of web filters without autoVerify: links to them open a chooser or the browser, never
    /// the app directly (Android 12+), and no assetlinks.json is consulted.
    public var unverifiedHosts: [ManifestHost] {
        let verified = Set(verifiedHosts)
        return hosts { !$0.autoVerify }.filter { !verified.contains($0) }
    }

    /// One example URL per verified (host, path pattern), where the pattern allows one: URLs to
    /// watch, which should open the app.
    public var watchedURLs: [String] {
        var seen = Set<String>()
        return webFilters.filter(\.autoVerify).flatMap(\.exampleURLs).filter { seen.insert($0).inserted }
    }

    private func hosts(_ include: (WebIntentFilter) -> Bool) -> [ManifestHost] {
        var seen = Set<ManifestHost>()
        return webFilters.filter(include).flatMap(\.hosts).filter { seen.insert($0).inserted }
    }
}

/// One `<intent-filter>` that takes web URLs.
public struct WebIntentFilter: Hashable, Sendable {
    /// The line of the `<intent-filter>` tag.
    public var line: Int
    /// `android:name` of the enclosing activity or activity-alias.
    public var activity: String?
    public var autoVerify: Bool
    /// `http` and/or `https` (other schemes of the filter are not web links).
    public var schemes: [String]
    public var hosts: [ManifestHost]
    /// Empty: the filter takes every path of its hosts.
    public var paths: [PathPattern]
    /// Android delivers browser links only to filters with the DEFAULT category too.
    public var hasDefaultCategory: Bool

    /// Every (host, path) combination of the filter as a URL that it takes — Android combines all
    /// `<data>` elements of one filter — where one can be written: not for wildcard hosts, nor for
    /// patterns no example can be made from.
    public var exampleURLs: [String] {
        let scheme = schemes.contains("https") ? "https" : "http"
        return hosts.filter { !$0.isWildcard }.flatMap { host in
            paths.isEmpty ? ["\(scheme)://\(host.host)/"] : paths.compactMap { $0.example.map { "\(scheme)://\(host.host)\($0)" } }
        }
    }
}

/// A host of an intent filter: `example.com`, or `*.example.com` (every subdomain; verified
/// against the file of `example.com`, assetlinks-spec.md §2.1).
public struct ManifestHost: Hashable, Sendable, CustomStringConvertible {
    /// Lower case, without the `*.`: also the host whose assetlinks.json Android reads.
    public var host: String
    public var isWildcard: Bool = false

    public var description: String { isWildcard ? "*.\(host)" : host }
}
