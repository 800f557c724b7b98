-- Imports that start at once (issue #31). An import's domains had their first check due at their
-- host's place in the interval, so 200 imported hosts showed "Never checked" for up to an hour while
-- the workers, asked, checked all of them in 7 s. Now an imported domain also joins the first-check
-- queue: the lease takes queued domains, oldest first, with whatever room a claim has left after the
-- requested and the due ones, so they run at the rate the workers sustain and never ahead of a due
-- check; a domain still queued when its place in the interval comes is taken as due, which spreads
-- only a backlog longer than one interval (a million imported at once), as before.
--
-- The lease clears the column when it takes the domain (as it clears check_requested_at), so the
-- index holds only the domains waiting for their first check: empty in the steady state, where the
-- lease's walk of it costs one index probe.
ALTER TABLE domains ADD COLUMN first_check_queued_at timestamptz;
CREATE INDEX domains_first_check_queue ON domains (first_check_queued_at, id)
    WHERE first_check_queued_at IS NOT NULL AND NOT paused;
