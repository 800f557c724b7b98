-- Stored readings (0033) change spelling: a reading's text is now its lines joined by line feeds
-- with each line's pointer an index into the distinct pointers (Vocabulary's FileText coding), not
-- an object per line. Decoding the old spelling cost more than parsing the file again (about 2x;
-- the stored text was about ten times the file), which is what the column is there to save.
-- SQL cannot run the Swift cores, so the old readings are dropped: the first reader of each version
-- (Monitor's StoredVersions) reads its bytes, which are kept as served, once and writes the reading
-- back in the new spelling, as for versions stored before 0033.
UPDATE association_versions SET reading = NULL WHERE reading IS NOT NULL;
