import Vocabulary

extension AppStore {
    /// The expectations apps put on domains (what `placeExpectations` writes, for every app): each
    /// Apple link's service requires the app's Apple IDs, each watched URL watched on Apple on an applinks
    /// domain must open its first Apple ID. A config apply leaves these to the apps: it neither removes them from
    /// a domain the file declares nor exports them as the domain's own.
    public func appPlacedExpectations() throws -> [ExpectationRow] {
        let appIDs = try rows("""
            SELECT DISTINCT l.domain_id, l.service, a.apple_app_id AS app_id FROM app_links l JOIN app_apple_ids a ON a.app_id = l.app_id
            WHERE l.platform = 'apple'
            """).map { row in
            ExpectationRow(domainID: try row.decode("domain_id"), kind: .appID(try AppIDExpectation(row: row)))
        }
        let urls = try rows("""
            SELECT DISTINCT u.domain_id, u.url, first.apple_app_id AS expected_app_id, NULL::text AS expected_android
            FROM app_watched_urls u
            CROSS JOIN LATERAL (SELECT apple_app_id FROM app_apple_ids WHERE app_id = u.app_id ORDER BY position LIMIT 1) first
            WHERE u.platforms <> 'android' AND EXISTS (SELECT 1 FROM app_links l WHERE l.app_id = u.app_id AND l.domain_id = u.domain_id
                            AND l.platform = 'apple' AND l.service = 'applinks')
            """).map { row in
            ExpectationRow(domainID: try row.decode("domain_id"), kind: .watchedURL(try WatchedURLExpectation(row: row)))
        }
        return appIDs + urls
    }
}
