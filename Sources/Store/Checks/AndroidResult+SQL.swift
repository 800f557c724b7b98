import Vocabulary

extension AndroidResult {
    /// `isWatched` in SQL, for the check `c`: Android counts when the site served assetlinks.json or an
    /// Android app is expected of it (and, for a domain watched for Android only, always: migration
    /// 0046 keeps `domains.last_android_verdict` so, and `sqlAndroidVerdict` below says it). Written from the keys `checks.android` is stored under (the
    /// overview's platform filter and column, /metrics' per-platform counts), so Swift and SQL agree.
    static var sqlIsWatched: SQL {
        "(c.android IS NOT NULL AND ((c.android->>'serves')::boolean OR jsonb_array_length(c.android->'identities') > 0))"
    }

    /// Each platform's state for the domain `d` by its latest check `c`, NULL where the platform is not
    /// watched (`domains.platforms`) or, for Android, does not count: the overview's columns, the API,
    /// `status` and the badge read these. The state is the one `DomainVerdict` measured, unmet
    /// expectations included (`domains.last_apple_state` / `last_android_state`, migration 0060); where
    /// none was written (a row from before it, a check written by `insertCheck`) the check's file verdict,
    /// which is the state whenever the platform's expectations all hold.
    /// A domain watched for Android only counts Android's verdict even when the site serves no file and
    /// expects no app: its owner chose Android (`DomainVerdict(android:)`).
    static var sqlAppleVerdict: SQL {
        "CASE WHEN d.platforms <> 'android' AND " + sqlCheckedApple + " THEN COALESCE(d.last_apple_state, c.verdict) END"
    }
    static var sqlAndroidVerdict: SQL {
        "CASE WHEN d.platforms = 'android' OR (d.platforms <> 'apple' AND " + sqlIsWatched
            + ") THEN COALESCE(d.last_android_state, c.android->>'verdict') END"
    }

    /// The check `c` fetched Apple's file: false only for one made while the domain was watched for
    /// Android only (Android's transport and no `.well-known` AASA), whose `c.verdict` is Android's.
    static var sqlCheckedApple: SQL { "NOT (c.transport ? 'assetLinks' AND NOT c.transport ? 'wellKnown')" }
}
