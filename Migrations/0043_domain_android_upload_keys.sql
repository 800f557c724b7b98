-- Which of a domain's own expected Android fingerprints are upload keys (a subset of fingerprints,
-- upper-case, colon-separated, sorted): a file that grants only those is the Play App Signing
-- mistake (fingerprint-upload-key-only), named as such as it is for a registered app's keys.
ALTER TABLE expected_android_apps ADD COLUMN upload_keys jsonb NOT NULL DEFAULT '[]';
