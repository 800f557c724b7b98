-- What views need of a stored association file, computed by the platform's core once, when the
-- version is first stored: the text pages show (pretty lines with their JSON pointers) and the typed
-- document (AASADocument or AssetLinksFile), as Vocabulary's VersionReading coded by StoredJSON. Pages,
-- diffs and the URL tester read this instead of parsing the bytes on each view; `body` stays the
-- file byte for byte (the raw download serves it).
-- Rows stored before this column have it NULL: SQL cannot run the Swift cores, so the first reader of
-- such a row (Monitor's StoredVersions) reads the bytes once and writes the reading back.
ALTER TABLE association_versions ADD COLUMN reading jsonb;
