-- AndroidResult (checks.android) is read by its synthesized Decodable, which needs every non-optional
-- key. Results stored before URLs were judged on Android have no "watchedURLs": they judged none, which
-- the type spells as an empty list. Every other key a result may lack is optional in the type.
UPDATE checks SET android = jsonb_set(android, '{watchedURLs}', '[]'::jsonb)
 WHERE android IS NOT NULL AND jsonb_typeof(android) = 'object' AND NOT android ? 'watchedURLs';
