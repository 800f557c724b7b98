// `--seed-first-round K` (issue #17): the state a first round leaves, without checking a million domains
// for the first time (every first check stores both files: ~3 h at 1M on this machine). The real first
// round runs on K domains (the templates, e0 … e(K−1)); every other domain eG then gets a copy of the
// rows template e(G mod K)'s first check wrote, through one SQL function made in the bench's database:
//   - its `checks` row (a new id; the template's host replaced by the domain's own in every text and
//     JSON column: URLs, transport facts, Google's statements, the summary);
//   - the `domains` row's columns the check wrote (last_*, check_round, consecutive_failures, the
//     secondary requests' cadence stamps, each platform's state), `last_check_id` pointing at the copy
//     so the row triggers (0039, 0045, 0046) derive the file verdicts and error codes from it, and the
//     statement triggers keep domain_counts and the failing-code counts;
//   - `domain_stats` (counters, latency histogram, sparkline; its statement trigger keeps the totals);
//   - any other per-domain table the templates have rows in (alert streaks, alerts: columns naming a
//     check point at the copy), found from information_schema so a later migration's table is copied too.
// Every column list is read from information_schema, so a column a later migration adds is copied as
// well. The file versions (association_versions) are shared by hash: every host serves the same bytes.
// The copy is right only if the next round finds nothing changed: the bench prints how many checks of
// the backlog round were repeats and how many wrote a new check row (nearly all must be repeats).
import Foundation
import Store

/// A row of the seed's report: per table, the templates' rows and the rows it wrote for the others.
struct SeedCopy {
    var table: String
    var templateRows: Int
    var copiedRows: Int
    /// The step's time, in seconds.
    var seconds: Double
}

/// Creates `bench_seed_first_round` in the bench's database. Separate from the run so the statement
/// text stays one literal (the Store's SQL type takes no runtime strings); the dynamic column lists are
/// built inside PostgreSQL from its own catalogue.
func createSeedFunction(_ database: Database) throws {
    try database.execute("""
        CREATE OR REPLACE FUNCTION bench_seed_first_round(templates bigint, due timestamptz)
        RETURNS TABLE (table_name text, template_rows bigint, copied_rows bigint, seconds float8) LANGUAGE plpgsql AS $seed$
        DECLARE
          cols text; exprs text; r record; n_template bigint; n_copied bigint; began timestamptz := clock_timestamp();
        BEGIN
          -- Each unchecked domain eG and its template e(G mod K), a domain the first round checked.
          CREATE UNLOGGED TABLE bench_seed AS
            SELECT d.id AS domain_id, d.host, t.id AS template_id, t.host AS template_host, t.last_check_id AS template_check,
                   NULL::bigint AS new_check
            FROM domains d
            JOIN domains t ON t.host = 'e' || (substr(split_part(d.host, '.', 1), 2)::bigint % templates) || '.fleet.test'
            WHERE d.last_check_id IS NULL AND t.last_check_id IS NOT NULL AND d.host ~ '^e[0-9]+\\.fleet\\.test$';
          ALTER TABLE bench_seed ADD PRIMARY KEY (domain_id);
          ANALYZE bench_seed;
          -- The templates by id: the self-check counts their checks through this small table's join, not an
          -- IN / NOT IN over every seeded id (a NOT IN whose list outgrows work_mem is rescanned per row).
          CREATE UNLOGGED TABLE bench_templates AS SELECT DISTINCT template_id AS domain_id FROM bench_seed;
          ALTER TABLE bench_templates ADD PRIMARY KEY (domain_id);
          ANALYZE bench_templates;

          -- The host inside text and JSON: the template's name becomes the domain's own. Names are eN.fleet.test,
          -- so one name is never a part of another (e1.fleet.test is not inside e11.fleet.test).
          SELECT string_agg(quote_ident(c.column_name), ', ' ORDER BY c.ordinal_position),
                 string_agg(CASE WHEN c.column_name = 'domain_id' THEN 's.domain_id'
                                 WHEN c.data_type = 'jsonb' THEN format('replace(x.%I::text, s.template_host, s.host)::jsonb', c.column_name)
                                 WHEN c.data_type = 'text' THEN format('replace(x.%I, s.template_host, s.host)', c.column_name)
                                 ELSE format('x.%I', c.column_name) END, ', ' ORDER BY c.ordinal_position)
            INTO cols, exprs FROM information_schema.columns c
            WHERE c.table_schema = 'public' AND c.table_name = 'checks' AND c.is_identity = 'NO' AND c.is_generated = 'NEVER';
          EXECUTE format('WITH ins AS (INSERT INTO checks (%s) SELECT %s FROM bench_seed s JOIN checks x ON x.id = s.template_check '
                         'RETURNING id, domain_id) UPDATE bench_seed s SET new_check = ins.id FROM ins WHERE s.domain_id = ins.domain_id',
                         cols, exprs);
          SELECT count(*) INTO n_copied FROM bench_seed WHERE new_check IS NOT NULL;
          table_name := 'checks'; template_rows := (SELECT count(*) FROM checks x WHERE x.domain_id IN (SELECT DISTINCT template_id FROM bench_seed));
          copied_rows := n_copied; seconds := extract(epoch FROM clock_timestamp() - began); began := clock_timestamp(); RETURN NEXT;

          -- The domain row: what the check wrote, not what registration set (host, names, settings, lease).
          SELECT string_agg(CASE WHEN c.data_type = 'jsonb' THEN format('%I = replace(t.%I::text, s.template_host, s.host)::jsonb', c.column_name, c.column_name)
                                 WHEN c.data_type = 'text' THEN format('%I = replace(t.%I, s.template_host, s.host)', c.column_name, c.column_name)
                                 ELSE format('%I = t.%I', c.column_name, c.column_name) END, ', ')
            INTO exprs FROM information_schema.columns c
            WHERE c.table_schema = 'public' AND c.table_name = 'domains' AND c.is_identity = 'NO' AND c.is_generated = 'NEVER'
              AND c.column_name NOT IN ('host', 'display_name', 'wildcard', 'interval_seconds', 'next_check_at', 'check_requested_at',
                                        'lease_until', 'leased_by', 'lease_attempt_key', 'paused', 'badge_enabled', 'created_at',
                                        'updated_at', 'last_check_id', 'alert_open_after', 'alert_resolve_after', 'platforms');
          EXECUTE format('UPDATE domains d SET last_check_id = s.new_check, next_check_at = $1, %s '
                         'FROM bench_seed s JOIN domains t ON t.id = s.template_id WHERE d.id = s.domain_id AND s.new_check IS NOT NULL', exprs)
            USING due;
          GET DIAGNOSTICS n_copied = ROW_COUNT;
          UPDATE domains SET next_check_at = due WHERE id IN (SELECT DISTINCT template_id FROM bench_seed);
          table_name := 'domains'; template_rows := (SELECT count(DISTINCT template_id) FROM bench_seed); copied_rows := n_copied; seconds := extract(epoch FROM clock_timestamp() - began); began := clock_timestamp(); RETURN NEXT;

          SELECT string_agg(format('%I = t.%I', c.column_name, c.column_name), ', ') INTO exprs FROM information_schema.columns c
            WHERE c.table_schema = 'public' AND c.table_name = 'domain_stats' AND c.column_name <> 'domain_id';
          EXECUTE format('UPDATE domain_stats x SET %s FROM bench_seed s JOIN domain_stats t ON t.domain_id = s.template_id '
                         'WHERE x.domain_id = s.domain_id', exprs);
          GET DIAGNOSTICS n_copied = ROW_COUNT;
          table_name := 'domain_stats'; template_rows := (SELECT count(DISTINCT template_id) FROM bench_seed); copied_rows := n_copied; seconds := extract(epoch FROM clock_timestamp() - began); began := clock_timestamp(); RETURN NEXT;

          -- Every other table with per-domain rows (not the name index, which registration filled).
          FOR r IN SELECT c.table_name AS name FROM information_schema.columns c
                   JOIN information_schema.tables tb ON tb.table_schema = c.table_schema AND tb.table_name = c.table_name
                   WHERE c.table_schema = 'public' AND c.column_name = 'domain_id' AND tb.table_type = 'BASE TABLE'
                     AND c.table_name NOT IN ('checks', 'domain_stats', 'domain_names', 'bench_seed', 'bench_templates', 'bench_due') LOOP
            EXECUTE format('SELECT count(*) FROM %I WHERE domain_id IN (SELECT DISTINCT template_id FROM bench_seed)', r.name) INTO n_template;
            CONTINUE WHEN n_template = 0;
            SELECT string_agg(quote_ident(c.column_name), ', ' ORDER BY c.ordinal_position),
                   string_agg(CASE WHEN c.column_name = 'domain_id' THEN 's.domain_id'
                                   WHEN c.column_name LIKE '%check_id' THEN format('CASE WHEN x.%I IS NULL THEN NULL ELSE s.new_check END', c.column_name)
                                   WHEN c.data_type = 'jsonb' THEN format('replace(x.%I::text, s.template_host, s.host)::jsonb', c.column_name)
                                   WHEN c.data_type = 'text' THEN format('replace(x.%I, s.template_host, s.host)', c.column_name)
                                   ELSE format('x.%I', c.column_name) END, ', ' ORDER BY c.ordinal_position)
              INTO cols, exprs FROM information_schema.columns c
              WHERE c.table_schema = 'public' AND c.table_name = r.name AND c.is_identity = 'NO' AND c.is_generated = 'NEVER'
                AND coalesce(c.column_default, '') NOT LIKE 'nextval(%';
            EXECUTE format('INSERT INTO %I (%s) SELECT %s FROM bench_seed s JOIN %I x ON x.domain_id = s.template_id', r.name, cols, exprs, r.name);
            GET DIAGNOSTICS n_copied = ROW_COUNT;
            table_name := r.name; template_rows := n_template; copied_rows := n_copied; seconds := extract(epoch FROM clock_timestamp() - began); began := clock_timestamp(); RETURN NEXT;
          END LOOP;
        END
        $seed$
        """)
}

/// Runs the seed: every unchecked domain gets its template's first-check state, due at `due`.
func seedFirstRound(_ database: Database, templates: Int, due: Date) throws -> [SeedCopy] {
    try createSeedFunction(database)
    return try database.rows("SELECT table_name, template_rows, copied_rows, seconds FROM bench_seed_first_round($1, $2)", templates, due).map {
        SeedCopy(table: try $0.decode(0), templateRows: try $0.decode(1), copiedRows: try $0.decode(2), seconds: try $0.decode(3))
    }
}

/// The seed's self-check over a round that began at `start` (checks with an id above `lastCheckID` are
/// the round's): how many checks were repeats (unchanged) and how many wrote a new check row, for the
/// seeded domains and the templates apart. A right copy leaves (nearly) every seeded check a repeat.
///
/// Every count is a range or a join with the 2,000-odd templates (`bench_templates`): all repeats since
/// the start (a scan of the round's repeat rows, the only ones there are after a seed), the templates'
/// repeats (an index lookup per template), new check rows by id. The seeded domains' share is the
/// difference. The first form, IN / NOT IN over the seeded ids, ran over 20 minutes at 1M: a NOT IN
/// whose id list does not fit work_mem is not hashed, so each row rescans the list.
func seedSelfCheck(_ database: Database, since start: Date, lastCheckID: Int64) throws -> String {
    let began = Date()
    let since = start.addingTimeInterval(-1)
    let allRepeats: Int = try database.value("""
        SELECT (SELECT count(*) FROM check_repeats WHERE checked_at >= $1)
             -- A round that crosses UTC midnight: the workers' retention job packs the day before (0056).
             + (SELECT count(*) FROM check_repeat_days p CROSS JOIN LATERAL unnest(p.checked_at) AS e(t)
                WHERE p.day >= ($1::timestamptz AT TIME ZONE 'UTC')::date AND e.t >= $1)
        """, since)
    let templateRepeats: Int = try database.value("""
        SELECT (SELECT count(*) FROM bench_templates t JOIN check_repeats r ON r.domain_id = t.domain_id WHERE r.checked_at >= $1)
             + (SELECT count(*) FROM bench_templates t JOIN check_repeat_days p ON p.domain_id = t.domain_id
                CROSS JOIN LATERAL unnest(p.checked_at) AS e(t) WHERE p.day >= ($1::timestamptz AT TIME ZONE 'UTC')::date AND e.t >= $1)
        """, since)
    let allChanged: Int = try database.value("SELECT count(*) FROM checks WHERE id > $1", lastCheckID)
    let templateChanged: Int = try database.value(
        "SELECT count(*) FROM checks c JOIN bench_templates t ON t.domain_id = c.domain_id WHERE c.id > $1", lastCheckID)
    let seededRepeats = allRepeats - templateRepeats, seededChanged = allChanged - templateChanged
    var text = "seed self-check: seeded domains \(seededRepeats) unchanged (repeat rows), \(seededChanged) wrote a new check row; "
        + "templates \(templateRepeats) unchanged, \(templateChanged) new check rows"
    if seededChanged > 0 {
        // What differed: the first findings or events of a changed seeded check, to find the column the copy missed.
        let sample = try database.rows("""
            SELECT d.host, c.events::text AS events FROM checks c JOIN domains d ON d.id = c.domain_id
            WHERE c.id > $1 AND NOT EXISTS (SELECT 1 FROM bench_templates t WHERE t.domain_id = c.domain_id) ORDER BY c.id LIMIT 3
            """, lastCheckID)
        for s in sample { text += "\n    changed: \(try s.decode("host", as: String.self)) events \(String(try s.decode("events", as: String.self).prefix(300)))" }
    }
    return text + String(format: " (self-check %.1f s)", Date().timeIntervalSince(began))
}
