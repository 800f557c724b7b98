-- The platform states make the domain's verdict wherever a check is stored (DomainVerdict.verdict: the
-- worse of the two, pass when neither counts), so they are never left unwritten: a writer that
-- forgets them (as the batched repeats and insertCheck did before 0061) is refused instead of a page
-- showing another state than /metrics counts. 0061 made every row agree. A deleted latest check sets
-- last_check_id NULL (0002), which frees the row until its next check.
ALTER TABLE domains ADD CONSTRAINT domains_states_make_verdict CHECK (
    last_check_id IS NULL OR last_verdict = aasa_verdict_of_states(last_apple_state, last_android_state));
