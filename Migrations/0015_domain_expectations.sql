-- The domain page showed, for each expectation, whether the current file meets it by parsing the
-- stored file and matching every watched URL on every view. The check already measured exactly that
-- (and an edit of the expectations re-measures it), so the domain keeps the result with its state:
-- the expectation results against the file of its latest check, NULL when that check had no usable
-- file (nothing to measure: the findings say why) or before the first check.
ALTER TABLE domains ADD COLUMN last_expectations jsonb;

UPDATE domains d SET last_expectations = c.expectations
FROM checks c
WHERE c.id = d.last_check_id AND (c.summary->>'documentParsed')::boolean IS TRUE;
