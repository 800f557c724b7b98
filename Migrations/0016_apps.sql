-- Apps: what people think in. An app is an Apple app (one or more app IDs, for variants such as a
-- staging or enterprise build) and/or an Android app (a package and the SHA-256 fingerprints of its
-- signing certificates), linked to the domains it claims per service and platform. The domains stay
-- the unit that is checked; an app is a view over them plus the expectations it put on them.

CREATE TABLE apps (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 200),
    -- Java package rules: dot-separated identifiers, at least two (Android refuses one segment).
    android_package text CHECK (android_package ~ '^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$'),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- TEAMID.bundle.id of each Apple variant, in the order they were given (the first is the one
-- watched URLs are expected to open).
CREATE TABLE app_apple_ids (
    app_id bigint NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    apple_app_id text NOT NULL CHECK (apple_app_id ~ '^[A-Za-z0-9]+\.[A-Za-z0-9.*-]+$'),
    position integer NOT NULL,
    PRIMARY KEY (app_id, apple_app_id)
);

-- SHA-256 fingerprints of the Android signing certificates, as Play Console and keytool print them
-- (upper-case hex pairs joined by colons). During a key rotation both keys are listed.
CREATE TABLE app_fingerprints (
    app_id bigint NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    fingerprint text NOT NULL CHECK (fingerprint ~ '^([0-9A-F]{2}:){31}[0-9A-F]{2}$'),
    key_role text NOT NULL CHECK (key_role IN ('app-signing', 'upload', 'other')),
    PRIMARY KEY (app_id, fingerprint)
);

-- The app claims the domain for a service on a platform. Android's verified App Links are stored as
-- service 'applinks' (the one Android relation the monitor watches, handle_all_urls).
CREATE TABLE app_links (
    app_id bigint NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    domain_id bigint NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    platform text NOT NULL CHECK (platform IN ('apple', 'android')),
    service text NOT NULL CHECK (service IN ('applinks', 'webcredentials', 'appclips', 'activitycontinuation')),
    -- ?mode=developer: devices skip Apple's CDN, so only the origin counts for this link.
    developer_mode boolean NOT NULL DEFAULT false,
    -- ?mode=managed: only on supervised devices with the domain approved by MDM; recorded and shown.
    managed_mode boolean NOT NULL DEFAULT false,
    -- The entry as the app's file wrote it ("applinks:*.example.com?mode=developer"), for the page.
    declared_as text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (app_id, domain_id, platform, service),
    CHECK (platform = 'apple' OR (service = 'applinks' AND NOT developer_mode AND NOT managed_mode))
);
CREATE INDEX app_links_domain ON app_links (domain_id);

-- URLs that must open the app (from an Android manifest's path patterns, or given by hand), on the
-- domain whose file decides them. The Apple outcome is measured through the domain's watched_urls.
CREATE TABLE app_watched_urls (
    app_id bigint NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    domain_id bigint NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    url text NOT NULL,
    position integer NOT NULL,
    PRIMARY KEY (app_id, url)
);

-- A channel with rows here receives the alerts of these apps' domains (besides any channel_domains).
CREATE TABLE channel_apps (
    channel_id bigint NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
    app_id bigint NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    PRIMARY KEY (channel_id, app_id)
);

-- The overview's by-app view and the app page are cached like the overview: any change to apps
-- must empty those caches in every process.
CREATE TRIGGER apps_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON apps
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_notify_change('aasa_data_changed');
CREATE TRIGGER app_links_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON app_links
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_notify_change('aasa_data_changed');
