import Vocabulary

extension AndroidResult {
    /// `isWatched` in SQL, for the check `c`: Android counts when the site served assetlinks.json or an
    /// Android app is expected of it (and, for a domain watched for Android only, always: migration
    /// 0046 keeps `domains.last_android_verdict` so, and `sqlAndroidVerdict` below says it). Written from the keys `checks.android` is stored under (the
    /// overview's platform filter and column, /metrics' per-platform counts), so Swift and SQL agree.
    static var sqlIsWatched: SQL {
        "(c.android IS NOT NULL AND ((c.android->>'serves')::boolean OR jsonb_array_length(c.android->'identities') > 0))"
    }

    /// Each platform's verdict of the check `c` for the domain `d`, NULL where the platform is not watched
    /// (`domains.platforms`) or, for Android, does not count: the overview and /metrics read these.
    /// A domain watched for Android only counts Android's verdict even when the site serves no file and
    /// expects no app: its owner chose Android (`DomainVerdict(android:)`).
    static var sqlAppleVerdict: SQL { "CASE WHEN d.platforms <> 'android' AND " + sqlCheckedApple + " THEN c.verdict END" }
    static var sqlAndroidVerdict: SQL {
        "CASE WHEN d.platforms = 'android' OR (d.platforms <> 'apple' AND " + sqlIsWatched + ") THEN c.android->>'verdict' END"
    }

    /// The check `c` fetched Apple's file: false only for one made while the domain was watched for
    /// Android only (Android's transport and no `.well-known` AASA), whose `c.verdict` is Android's.
    static var sqlCheckedApple: SQL { "NOT (c.transport ? 'assetLinks' AND NOT c.transport ? 'wellKnown')" }
}
