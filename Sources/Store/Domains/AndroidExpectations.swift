import Foundation
import Vocabulary

/// An Android app a domain must verify: the package of an app linked to the domain for Android
/// (`app_links`, written only through the Registry's `AppRegistry`) and its signing-key fingerprints.
public struct AndroidExpectationRow: Sendable, Hashable {
    public var domainID: Int64
    /// The app as the check and its evaluation expect it (watched URLs are `Expectations`' business).
    public var app: AndroidAppExpectation
    /// The app's watched URLs on this domain watched on Android (`app_watched_urls`): each must open the package.
    public var watchedURLs: [String] = []
}

extension DomainStore {
    /// The Android apps several domains must verify (a scheduler batch), in app order.
    public func androidExpectations(domainIDs: [Int64]) throws -> [AndroidExpectationRow] {
        try rows(Self.androidAppsOf, SQLArray(domainIDs.map(Int.init))).map { row in
            AndroidExpectationRow(domainID: try row.decode("domain_id"), app: try AndroidAppExpectation(row: row),
                                  watchedURLs: try row.decodeJSON("watched_urls"))
        }
    }

    static var androidAppsOf: SQL {
        """
        SELECT l.domain_id, a.android_package AS package,
          coalesce(jsonb_agg(f.fingerprint ORDER BY f.fingerprint) FILTER (WHERE f.fingerprint IS NOT NULL), '[]')::text AS fingerprints,
          coalesce(jsonb_agg(f.fingerprint ORDER BY f.fingerprint) FILTER (WHERE f.key_role = 'upload'), '[]')::text AS upload_keys,
          (SELECT coalesce(jsonb_agg(u.url ORDER BY u.position), '[]') FROM app_watched_urls u
            WHERE u.app_id = a.id AND u.domain_id = l.domain_id AND u.platforms <> 'apple')::text AS watched_urls, 0 AS source, a.id AS ord
        FROM app_links l JOIN apps a ON a.id = l.app_id LEFT JOIN app_fingerprints f ON f.app_id = a.id
        WHERE l.domain_id = ANY($1::bigint[]) AND l.platform = 'android' AND a.android_package IS NOT NULL
        GROUP BY l.domain_id, a.id, a.android_package
        UNION ALL
        -- The domain's own, typed on its expectations form, after the apps' (in the form's order).
        SELECT e.domain_id, e.package, e.fingerprints::text, e.upload_keys::text, '[]', 1, e.position FROM expected_android_apps e
        WHERE e.domain_id = ANY($1::bigint[])
        ORDER BY domain_id, source, ord
        """
    }
}
