import AssetLinks
import Vocabulary

/// What watched URLs must do on Android, and what they do under one assetlinks.json. Pure.
///
/// Android 15+ (with Google services) lets the app's dynamic rules decide (the AssetLinks core's
/// `AppLinkMatcher`); Android 14 and lower ignore them and open every path of a verified host that the
/// manifest claims. The monitor holds the Android 15+ outcome to the expectation, since that is the one
/// the file's rules can change; the older outcome is stored beside it.
public enum AndroidWatchedURLs {
    /// The URLs watched on Android, each once, with what it must do on Android 15+:
    /// - every URL an app linked to the domain for Android watches must open that app's package;
    /// - each of the domain's own watched URLs keeps its meaning: one that must stay in the browser
    ///   must stay there on Android too, and one that must open an (Apple) app must open the domain's
    ///   first expected Android package. Without an expected package there is nothing to open, so such
    ///   a URL is not judged on Android.
    /// `apps`: the packages linked for Android with their watched URLs, in the registration's order.
    /// `stated`: the domain's URLs whose Android outcome is stated apart from Apple's
    /// (`AndroidURLExpectation`): that outcome, whatever Apple's or an app's would give.
    public static func expected(domain: [WatchedURL], apps: [(package: String, urls: [String])],
                                stated: [String: URLOutcome] = [:]) -> [WatchedURL] {
        var out: [WatchedURL] = []
        var seen = Set<String>()
        for app in apps {
            for url in app.urls where seen.insert(url).inserted {
                out.append(WatchedURL(url: url, expected: stated[url] ?? .opensApp(app.package)))
            }
        }
        for watched in domain where !seen.contains(watched.url) {
            if let outcome = stated[watched.url] {
                out.append(WatchedURL(url: watched.url, expected: outcome))
                seen.insert(watched.url)
                continue
            }
            switch watched.expected {
            case .staysInBrowser:
                out.append(WatchedURL(url: watched.url, expected: .staysInBrowser))
            case .opensApp:
                guard let first = apps.first else { continue }
                out.append(WatchedURL(url: watched.url, expected: .opensApp(first.package)))
            }
            seen.insert(watched.url)
        }
        return out
    }

    /// Each watched URL's outcome under `file` (the host's statement list; nil when none is served).
    /// The apps asked are the expected package first, then every package the file names, in its
    /// order: a URL that must stay in the browser fails when any verified app opens it.
    /// `keys`: the signing keys expected of a package (app-signing keys first). A package with keys
    /// opens a URL only when a statement lists one of them — what the app's real builds see, and the
    /// one judgement the app page shows; a package without keys is asked for any key.
    public static func evaluate(_ watched: [WatchedURL], file: AssetLinksFile?, keys: [String: [String]] = [:]) -> [AndroidWatchedURLResult] {
        guard let file else {
            return watched.map {
                AndroidWatchedURLResult(url: $0.url, expected: $0.expected, actual: .staysInBrowser, beforeDynamicRules: .staysInBrowser,
                                        reason: "The host serves no statement list Android reads, so no app is verified for it.")
            }
        }
        let matcher = AppLinkMatcher(file)
        let named = file.packageNames
        return watched.map { watch in
            let url = AndroidURL(watch.url)
            var candidates = named
            if case .opensApp(let package) = watch.expected {
                candidates = [package] + named.filter { $0 != package }
            }
            func fingerprints(_ package: String) -> [String?] {
                let known = keys[package] ?? []
                return known.isEmpty ? [nil] : known.map { Optional($0) }
            }
            func opening(androidVersion: Int) -> String? {
                candidates.first { package in
                    fingerprints(package).contains { matcher.decide(url, packageName: package, fingerprint: $0, androidVersion: androidVersion).opensApp }
                }
            }
            let now = opening(androidVersion: AppLinkMatcher.firstDynamicRulesVersion)
            let before = opening(androidVersion: AppLinkMatcher.firstDynamicRulesVersion - 1)
            // Explain the app the expectation is about, or the one that opens the URL against it.
            let explained: String? = switch watch.expected {
            case .opensApp(let package): package
            case .staysInBrowser: now
            }
            // Explained for the key that opens it, else the first (the app-signing key).
            let reason = explained.map { package in
                let tries = fingerprints(package).map { matcher.explain(url, packageName: package, fingerprint: $0) }
                return (tries.first { $0.decision.opensApp } ?? tries[0]).summary
            }
                ?? "No app the file names is verified to open it."
            return AndroidWatchedURLResult(url: watch.url, expected: watch.expected, actual: now.map(URLOutcome.opensApp) ?? .staysInBrowser,
                                           beforeDynamicRules: before.map(URLOutcome.opensApp) ?? .staysInBrowser, reason: reason)
        }
    }
}
