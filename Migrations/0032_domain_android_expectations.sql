-- Android apps a domain must verify, typed on the domain's own expectations form (package and the
-- SHA-256 fingerprints of which one must be granted handle_all_urls). An app registered as an app
-- keeps its own in app_links / app_fingerprints; the scheduler reads both (androidExpectations).
CREATE TABLE expected_android_apps (
  domain_id bigint NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
  package text NOT NULL,
  -- Upper-case, colon-separated, sorted: the form CertificateFingerprint stores.
  fingerprints jsonb NOT NULL,
  position integer NOT NULL,
  PRIMARY KEY (domain_id, package)
);
