-- An open alert that gets worse (a certificate's next expiry threshold) is delivered as its own
-- event, alert.escalated, rather than a second alert.opened for the same alert.
ALTER TABLE deliveries DROP CONSTRAINT deliveries_event_check;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_event_check
    CHECK (event IN ('opened', 'escalated', 'resolved', 'reminder', 'published', 'test'));
