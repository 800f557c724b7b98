import Vocabulary

extension AndroidResult {
    /// `isWatched` in SQL, for the check `c`: Android counts when the site served assetlinks.json or an
    /// Android app is expected of it (and, for a domain watched for Android only, always: migration
    /// 0046 keeps `domains.last_android_verdict` so). Written from the keys `checks.android` is stored
    /// under, so Swift and SQL agree. A platform's *state* is not computed from the check: it is
    /// `domains.last_apple_state` / `last_android_state` (`DomainStore.sqlPlatformStates`).
    static var sqlIsWatched: SQL {
        "(c.android IS NOT NULL AND ((c.android->>'serves')::boolean OR jsonb_array_length(c.android->'identities') > 0))"
    }

    /// The check `c` fetched Apple's file: false only for one made while the domain was watched for
    /// Android only (Android's transport and no `.well-known` AASA), whose `c.verdict` is Android's.
    static var sqlCheckedApple: SQL { "NOT (c.transport ? 'assetLinks' AND NOT c.transport ? 'wellKnown')" }
}
