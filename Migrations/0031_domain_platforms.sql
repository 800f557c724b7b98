-- Which platforms a domain is watched for (WatchedPlatforms in Vocabulary): 'both' is what every
-- domain did before this column (Apple always, Android where the site serves assetlinks.json or an
-- Android app is expected), 'apple' never fetches assetlinks.json, 'android' never fetches the AASA.
-- A constant default: existing rows take it without a table rewrite.
ALTER TABLE domains ADD COLUMN platforms text NOT NULL DEFAULT 'both'
  CONSTRAINT domains_platforms_known CHECK (platforms IN ('both', 'apple', 'android'));
