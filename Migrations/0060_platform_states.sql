-- Each platform's own state on the domain row, unmet expectations included (DomainVerdict.apple /
-- .android, written with last_verdict by the check and by a re-measure after an edit). Before, the
-- overview's columns, the API's apple_state / android_state, `status` and the badge's ?platform= read
-- each platform's file verdict from the latest check, so a domain whose valid file lacked an expected
-- app ID was failing overall with Apple "passing".
-- NULL means "not written": readers then fall back to the latest check's file verdict
-- (AndroidResult.sqlAppleVerdict / sqlAndroidVerdict), which is the platform's state whenever its
-- expectations all hold. Existing rows start NULL: a domain whose states differ from its files'
-- verdicts never takes the batched-repeat path (CheckRecord.plainRepeat), so its next check writes them.
ALTER TABLE domains ADD COLUMN last_apple_state text, ADD COLUMN last_android_state text;
