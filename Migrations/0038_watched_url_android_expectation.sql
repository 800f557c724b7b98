-- A watched URL may state what it must do on Android apart from Apple's expectation
-- (AndroidURLExpectation: a package name, or 'nothing' for no app). NULL keeps today's meaning: Android's
-- expectation derived from Apple's (stay in the browser, or open the domain's first expected package).
ALTER TABLE watched_urls ADD COLUMN expected_android text
    CHECK (expected_android IS NULL OR expected_android = 'nothing' OR expected_android ~ '^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$');
