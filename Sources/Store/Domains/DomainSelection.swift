import Vocabulary

/// The domains a bulk action applies to: the ones ticked on the overview, or every domain the
/// overview's filter matches (its state, platform and search; not its sort or page). "All matching"
/// is applied by the filter in SQL, never by ids sent to the browser, so it reaches every page of a
/// million matches and only the domains that match when the action runs.
public enum DomainSelection: Sendable, Equatable {
    case ids([Int64])
    case matching(OverviewFilter)
}

/// What a bulk change did: how many domains the selection held when it ran, and how many of them
/// changed (a paused domain is not paused again, nor requested; a deleted one is gone).
public struct BulkChange: Sendable, Equatable {
    public var selected: Int
    public var changed: Int

    public init(selected: Int, changed: Int) {
        self.selected = selected
        self.changed = changed
    }
}

extension DomainStore {
    /// The selection as a condition on `domains d`, with its three parameters ($1 to $3; a change's own
    /// value is $4). The filter's state is the row's state as the overview shows it (`sqlOfDomainRow`:
    /// checking while a check is requested or running), its search the names the overview searches.
    static func condition(_ selection: DomainSelection) -> (sql: SQL, parameters: [any SQLEncodable]) {
        switch selection {
        case .ids(let ids):
            // $2 and $3 are not needed here (typed, as every parameter must be).
            return ("d.id = ANY($1::bigint[]) AND $2::text IS NULL AND $3::text IS NULL",
                    [SQLArray(ids.map { Int($0) }), nil as String?, nil as String?])
        case .matching(let f):
            let sql: SQL = "($1::text = '' OR " + DomainState.sqlOfDomainRow + " = $1) AND ($2::text IS NULL OR "
                + Self.sqlNamesMatch("$2") + ") AND " + Self.sqlPlatformFilter("$3")
            return (sql, [f.state?.rawValue ?? "", f.search.isEmpty ? nil : Self.searchPattern(f.search), f.platform?.rawValue ?? ""])
        }
    }

    /// How many domains the selection holds now: the confirmation's "Pause 37 domains?". One count
    /// over the domains (a scan of them for "all matching" at a million: a page's worth of time, once).
    public func count(_ selection: DomainSelection) throws -> Int {
        let c = Self.condition(selection)
        return try query("SELECT count(*)::bigint FROM domains d WHERE " + c.sql, c.parameters).rows.first?.decode(0) ?? 0
    }

    /// The display names of the first `limit` selected domains, by name: the confirmation shows
    /// which domains it means (a page's worth; the count says how many more).
    public func names(_ selection: DomainSelection, limit: Int) throws -> [String] {
        let c = Self.condition(selection)
        return try query("SELECT d.display_name FROM domains d WHERE " + c.sql + " ORDER BY lower(d.display_name), d.id LIMIT $4",
                         c.parameters + [limit]).rows.map { try $0.decode("display_name") }
    }

    /// "Check now" for every selected domain that is not paused, in one statement (as `requestCheck(domainID:)`).
    public func requestCheck(_ selection: DomainSelection) throws -> BulkChange {
        try change(selection, """
            UPDATE domains SET check_requested_at = COALESCE(check_requested_at, now())
            WHERE id IN (SELECT id FROM selected WHERE NOT paused) RETURNING 1
            """)
    }

    /// Pauses or resumes every selected domain that is not so already, in one statement, with the
    /// effects of `setPaused(domainID:)`: a pause ends a running lease and drops a request or a queue
    /// place; a resume makes the domain due at once.
    public func setPaused(_ selection: DomainSelection, _ paused: Bool) throws -> BulkChange {
        if paused {
            return try change(selection, """
                UPDATE domains SET paused = true, lease_until = NULL, leased_by = NULL, lease_attempt_key = NULL,
                  check_requested_at = NULL, first_check_queued_at = NULL
                WHERE id IN (SELECT id FROM selected WHERE NOT paused) RETURNING 1
                """)
        }
        return try change(selection, """
            UPDATE domains SET paused = false, next_check_at = LEAST(next_check_at, now())
            WHERE id IN (SELECT id FROM selected WHERE paused) RETURNING 1
            """)
    }

    /// Sets the interval of every selected domain that has another, in one statement, as an edit does
    /// (`changeDomain`): the next check comes no later than one new interval from now.
    public func setInterval(_ selection: DomainSelection, seconds: Int) throws -> BulkChange {
        try change(selection, """
            UPDATE domains SET interval_seconds = $4::integer, updated_at = now(),
              next_check_at = LEAST(next_check_at, now() + make_interval(secs => $4::integer))
            WHERE id IN (SELECT id FROM selected) AND interval_seconds <> $4::integer RETURNING 1
            """, value: seconds)
    }

    /// Deletes every selected domain with its history (as `deleteDomain(id:)`), in one statement.
    public func deleteDomains(_ selection: DomainSelection) throws -> BulkChange {
        try change(selection, "DELETE FROM domains WHERE id IN (SELECT id FROM selected) RETURNING 1")
    }

    /// Runs `statement` (which reads the CTE `selected`: each selected domain's id and paused flag,
    /// and returns a row per domain it changed) and counts both, in one statement and one snapshot.
    private func change(_ selection: DomainSelection, _ statement: SQL, value: (any SQLEncodable)? = nil) throws -> BulkChange {
        let c = Self.condition(selection)
        let row = try query("WITH selected AS (SELECT d.id, d.paused FROM domains d WHERE " + c.sql + "), changed AS (" + statement
                            + ") SELECT (SELECT count(*) FROM selected)::bigint AS selected, (SELECT count(*) FROM changed)::bigint AS changed",
                            c.parameters + (value.map { [$0] } ?? [])).rows.first
        return BulkChange(selected: try row?.decode("selected") ?? 0, changed: try row?.decode("changed") ?? 0)
    }
}
