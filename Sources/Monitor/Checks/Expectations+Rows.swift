import Vocabulary
import Store

extension Expectations {
    /// A domain's expectations from its stored rows.
    public init(rows: [ExpectationRow]) {
        var appIDs: [Service: [String]] = [:]
        var watched: [WatchedURL] = []
        for row in rows {
            switch row.kind {
            case .appID(let service, let appID):
                appIDs[service, default: []].append(appID)
            case .watchedURL(let url, let expected):
                watched.append(WatchedURL(url: url, expected: expected.map(URLOutcome.opensApp) ?? .staysInBrowser))
            }
        }
        self.init(appIDs: appIDs, watchedURLs: watched)
    }
}
