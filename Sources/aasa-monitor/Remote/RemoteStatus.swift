import Foundation
import Store
import Vocabulary

/// `status --server`: `GET /api/v1/status`, which is what `status --json` prints, read back into the
/// `DomainStatus` values a local `status` renders, so both print the same table and the same JSON.
enum RemoteStatus {
    struct Entry: Decodable {
        let host: String, state: String, platforms: String
        let apple: String?, android: String?, reason: String?
        let last_check: String?, version: String?, open_alerts: [String], paused: Bool
    }

    struct Document: Decodable { let domains: [Entry] }

    static func read(_ client: APIClient) throws(RemoteError) -> [DomainStatus] {
        let document = try client.decode(Document.self, from: try client.send("GET", "/status"), expecting: 200)
        var statuses: [DomainStatus] = []
        for entry in document.domains {
            guard let state = state(entry.state), let platforms = WatchedPlatforms(rawValue: entry.platforms) else {
                throw .unreadableAnswer("\(entry.host) has the state \(entry.state) or platforms \(entry.platforms), which this client does not know")
            }
            let lastCheck = try entry.last_check.map { text throws(RemoteError) in
                guard let date = ISO8601DateFormatter().date(from: text) else { throw .unreadableAnswer("\(entry.host)'s last check \(text) is not a date") }
                return date
            }
            statuses.append(DomainStatus(host: entry.host, state: state, lastCheck: lastCheck, version: entry.version, openAlerts: entry.open_alerts,
                                         // The line as the server wrote it (platform named already): the client only prints it.
                                         reason: entry.reason.map { DomainReason($0, platform: nil) }, platforms: platforms, apple: entry.apple.flatMap(Self.state),
                                         android: entry.android.flatMap(Self.state), paused: entry.paused))
        }
        return statuses
    }

    /// The state from the word `status` prints for it ("never checked").
    static func state(_ word: String) -> DomainState? {
        DomainState.allCases.first { $0.label.lowercased() == word }
    }
}
