import Foundation
import Store
import Vocabulary

/// Every link of an app (or of every app) with its state, from the judgements kept on the links
/// (migration 0058): a link whose domain moved on since its judgement (a newer changed check, other
/// expectation results) is judged again here against the domain's latest changed check, as the
/// app page's cell judges it, and stored; the others cost a light row each. The app page, the API and
/// /metrics count an app's links this way instead of decoding every link's latest check (issue #17).
enum AppLinkStandings {
    /// The standings in host order (by app, then domain, platform, service), each with its state.
    static func load(appID: Int64?, apps: [Int64: AppRecord], from store: some AppStore) throws -> [AppLinkStanding] {
        var standings = try store.appLinkStandings(appID: appID)
        let stale = standings.filter { $0.judged == nil }.map(\.domainID).uniqued()
        guard !stale.isEmpty else { return standings }
        var judgements: [AppLinkJudgement] = []
        var judged: [Key: DomainState] = [:]
        for read in try store.appLinksWithLatestCheck(appID: appID, domainIDs: stale) {
            guard let app = apps[read.appID], let digest = read.digest else { continue }
            let l = read.link
            // A cell's state does not depend on its run, only its "since" does; "checking" is stored
            // as "never" and read from the domain row when counted.
            let state = AppMatrix.cell(l, app: app, latest: read.latest, run: nil).state
            let kept: DomainState = state == .checking ? .never : state
            judgements.append(AppLinkJudgement(appID: read.appID, domainID: l.domainID, platform: l.platform, service: l.service,
                                               state: kept, checkID: l.lastCheckID, digest: digest))
            judged[Key(appID: read.appID, domainID: l.domainID, platform: l.platform, service: l.service)] = kept
        }
        try store.saveAppLinkJudgements(judgements)
        for i in standings.indices where standings[i].judged == nil {
            let s = standings[i]
            // A link added since the standings were read has no judgement here; it counts as never
            // checked until the next read judges it.
            standings[i].judged = judged[Key(appID: s.appID, domainID: s.domainID, platform: s.platform, service: s.service)] ?? .never
        }
        return standings
    }

    struct Key: Hashable {
        let appID: Int64, domainID: Int64, platform: Platform, service: Service
    }
}
