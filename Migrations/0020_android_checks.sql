-- Android's side of a check, typed (AndroidResult in Vocabulary): assetlinks.json's verdict and
-- findings, each expected app's identity as the file grants it, and Google's Digital Asset Links
-- verdict (error codes, maxAge, debugString, not-linked identities, staleness). NULL: Android was not
-- checked (every check before this migration). The file itself is android_version_id (0018).
ALTER TABLE checks ADD COLUMN android jsonb;
