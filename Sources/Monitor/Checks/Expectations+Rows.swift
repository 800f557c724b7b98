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
            case .appID(let e):
                appIDs[e.service, default: []].append(e.appID)
            case .watchedURL(let e):
                watched.append(WatchedURL(url: e.url, expected: e.expectedAppID.map(URLOutcome.opensApp) ?? .staysInBrowser))
                if let android = e.android { stated[e.url] = android.outcome }
            }
        }
        self.init(appIDs: appIDs, watchedURLs: watched,
                  androidWatchedURLs: AndroidWatchedURLs.expected(domain: watched,
                                                                  apps: android.map { ($0.app.packageName, $0.watchedURLs) },
                                                                  stated: stated))
    }
}
