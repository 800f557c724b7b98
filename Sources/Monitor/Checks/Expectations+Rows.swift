import AssetLinks
import Vocabulary
import Store

extension Expectations {
    /// A domain's expectations from its stored rows, with what its watched URLs must do on Android
    /// (`android`: the apps linked to the domain for Android; see `AndroidWatchedURLs.expected`).
    public init(rows: [ExpectationRow], android: [AndroidExpectationRow] = []) {
        var appIDs: [Service: [String]] = [:]
        var watched: [WatchedURL] = []
        var stated: [String: URLOutcome] = [:]
        for row in rows {
            switch row.kind {
            case .appID(let service, let appID):
                appIDs[service, default: []].append(appID)
            case .watchedURL(let url, let expected, let androidExpectation):
                watched.append(WatchedURL(url: url, expected: expected.map(URLOutcome.opensApp) ?? .staysInBrowser))
                if let androidExpectation { stated[url] = androidExpectation.outcome }
            }
        }
        self.init(appIDs: appIDs, watchedURLs: watched,
                  androidWatchedURLs: AndroidWatchedURLs.expected(domain: watched,
                                                                  apps: android.map { ($0.packageName, $0.watchedURLs) },
                                                                  stated: stated))
    }
}

extension AndroidAppExpectation {
    /// The app as the check and its evaluation expect it (watched URLs are `Expectations`' business).
    public init(row: AndroidExpectationRow) {
        self.init(packageName: row.packageName, fingerprints: row.fingerprints, uploadKeys: row.uploadKeys)
    }
}
