-- Typed history: a check's per-location transport facts (`checks.transport`) are one stored type,
-- CheckTransport in the Vocabulary module, written by the pipeline and read back as that type by the
-- domain page, the API and the certificate chart. Until now the page read the column leniently and
-- guessed: `wellKnown` or `well-known`, an object per location or a `locations` array, `timings.total`
-- (seconds) or `totalMilliseconds`, dates as ISO 8601 text or as numbers. The pipeline always wrote
-- the first of each; other writers (imports, fixtures, benchmarks) wrote partial objects. This rewrites
-- every row into the pipeline's spelling, so the type reads every row and fails loudly on anything else.

-- A date as ISO 8601 text: numbers were seconds since 1970 (large) or since 2001 (Foundation's default).
CREATE FUNCTION aasa_0014_date(v jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE jsonb_typeof(v)
    WHEN 'number' THEN to_jsonb(to_char(
      CASE WHEN (v #>> '{}')::float8 > 1000000000 THEN to_timestamp((v #>> '{}')::float8)
           ELSE timestamptz '2001-01-01 00:00:00+00' + make_interval(secs => (v #>> '{}')::float8) END
      AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))
    -- Only text that is a date: anything else would stop the migration, so it is dropped instead.
    WHEN 'string' THEN CASE WHEN (v #>> '{}') ~ '^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}(:?\d{2})?)$'
      THEN to_jsonb(to_char((v #>> '{}')::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')) END
    ELSE NULL END
$$;

-- One location's facts in the pipeline's spelling. `key` is where the object was found (its location
-- when the object does not say). Timings: the five phases in seconds, or none; a lone total in
-- milliseconds is already in `checks.latency_ms`, and inventing phases for it would draw false ones.
CREATE FUNCTION aasa_0014_facts(key text, o jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_strip_nulls(jsonb_build_object(
    'location', coalesce(o->>'location', CASE key WHEN 'wellKnown' THEN 'well-known' WHEN 'plainUserAgent' THEN 'well-known' ELSE key END),
    'url', coalesce(o->>'url', ''),
    'status', o->'status',
    'headers', coalesce(o->'headers', '{}'::jsonb),
    'body', '[]'::jsonb,
    'decodedSize', coalesce(o->'decodedSize', o->'size', '0'::jsonb),
    'bodyTruncated', coalesce(o->'bodyTruncated', 'false'::jsonb),
    'tls', CASE WHEN jsonb_typeof(o->'tls') = 'object' THEN jsonb_strip_nulls(jsonb_build_object(
        'trusted', coalesce(o->'tls'->'trusted', 'false'::jsonb),
        'failureReason', o->'tls'->'failureReason',
        'subject', o->'tls'->'subject',
        'subjectAltNames', coalesce(o->'tls'->'subjectAltNames', '[]'::jsonb),
        'issuer', o->'tls'->'issuer',
        'notAfter', aasa_0014_date(o->'tls'->'notAfter'))) END,
    'failure', CASE WHEN jsonb_typeof(o->'failure') = 'object' THEN jsonb_build_object(
        'kind', coalesce(o->'failure'->'kind', '"other"'::jsonb),
        'message', coalesce(o->'failure'->'message', '""'::jsonb)) END,
    'redirectTarget', o->'redirectTarget',
    'ipAddress', o->'ipAddress',
    'timings', CASE WHEN o->'timings' ?& ARRAY['dns', 'connect', 'tls', 'firstByte', 'total'] THEN o->'timings' END,
    'userAgent', o->'userAgent',
    'wireSize', o->'wireSize'))
$$;

CREATE FUNCTION aasa_0014_transport(t jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  WITH found(key, o) AS (
    -- An object keyed by location (either spelling of well-known)…
    SELECT CASE k WHEN 'well-known' THEN 'wellKnown' ELSE k END, v
    FROM jsonb_each(CASE jsonb_typeof(t) WHEN 'object' THEN t ELSE '{}'::jsonb END) AS e(k, v)
    WHERE k IN ('wellKnown', 'well-known', 'root', 'cdn', 'plainUserAgent') AND jsonb_typeof(v) = 'object'
    UNION ALL
    -- …or a list of locations, bare or under "locations", each naming its own.
    SELECT CASE l->>'location' WHEN 'well-known' THEN 'wellKnown' ELSE l->>'location' END, l
    FROM jsonb_array_elements(CASE jsonb_typeof(t) WHEN 'array' THEN t
                              WHEN 'object' THEN CASE jsonb_typeof(t->'locations') WHEN 'array' THEN t->'locations' END END) AS a(l)
    WHERE l->>'location' IN ('wellKnown', 'well-known', 'root', 'cdn')
  )
  SELECT coalesce((SELECT jsonb_object_agg(key, aasa_0014_facts(key, o)) FROM (SELECT DISTINCT ON (key) key, o FROM found) f), '{}'::jsonb)
    || CASE WHEN t->>'deviceLocation' IN ('well-known', 'root') THEN jsonb_build_object('deviceLocation', t->'deviceLocation')
            ELSE '{}'::jsonb END
$$;

UPDATE checks SET transport = aasa_0014_transport(transport) WHERE transport IS DISTINCT FROM aasa_0014_transport(transport);

DROP FUNCTION aasa_0014_transport(jsonb);
DROP FUNCTION aasa_0014_facts(text, jsonb);
DROP FUNCTION aasa_0014_date(jsonb);
