-- The platform seam: a domain carries one association file per platform (Apple's
-- apple-app-site-association, Android's assetlinks.json), and both are kept the same way: content-
-- addressed, one row per distinct file ever seen. The key is (platform, sha256): the same bytes served
-- as both files are two versions, each read by its own platform's core. Every writer names the
-- platform (no default), so a file can never be filed under the wrong one.
ALTER TABLE aasa_versions RENAME TO association_versions;
ALTER TABLE association_versions ADD COLUMN platform text NOT NULL DEFAULT 'apple' CHECK (platform IN ('apple', 'android'));
ALTER TABLE association_versions ALTER COLUMN platform DROP DEFAULT;
ALTER TABLE association_versions DROP CONSTRAINT aasa_versions_sha256_key;
ALTER TABLE association_versions ADD CONSTRAINT association_versions_platform_sha256_key UNIQUE (platform, sha256);
ALTER INDEX aasa_versions_pkey RENAME TO association_versions_pkey;

-- The Android file the origin served for a check (Apple's stay in origin/root/cdn_version_id).
ALTER TABLE checks ADD COLUMN android_version_id bigint REFERENCES association_versions (id);
