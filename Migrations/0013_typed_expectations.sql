-- Typed history: a check's expectation results are one stored type (ExpectationResults in the
-- Vocabulary module), written by the pipeline and read back as that type by the domain page, the API
-- and the re-evaluation of a domain's state; a row it cannot read is an error naming the column, no
-- longer an empty default. Rows written without measuring expectations (imports, benchmarks, the
-- column default) said "nothing measured" as '{}'; the type spells that with both of its keys.
UPDATE checks SET expectations = '{"missingAppIDs": {}, "watchedURLs": []}'::jsonb WHERE expectations = '{}'::jsonb;
ALTER TABLE checks ALTER COLUMN expectations SET DEFAULT '{"missingAppIDs": {}, "watchedURLs": []}'::jsonb;
