/// One alert streak of a domain (table `alert_streaks`): consecutive failing/passing checks for a
/// rule and subject, and the monitor's state for it (open since, threshold announced…) as JSON.
public struct StreakRow: Sendable, Hashable {
    public var rule: String
    public var subject: String
    public var failing: Int
    public var passing: Int
    public var stateJSON: String

    public init(rule: String, subject: String, failing: Int, passing: Int, stateJSON: String) {
        self.rule = rule
        self.subject = subject
        self.failing = failing
        self.passing = passing
        self.stateJSON = stateJSON
    }
}

/// What the monitor remembers of a domain: the summary of its last changed check (unchanged
/// repeats say the same, so it is also the previous check) and its alert streaks.
public struct DomainHistory: Sendable, Hashable {
    public var lastSummaryJSON: String?
    public var streaks: [StreakRow] = []
}

extension CheckStore {
    /// The histories of a batch of domains, keyed by domain id (absent: never checked, no streaks).
    public func domainHistories(domainIDs: [Int64]) throws -> [Int64: DomainHistory] {
        let ids = SQLArray(domainIDs.map(Int.init))
        var histories: [Int64: DomainHistory] = [:]
        for row in try rows(Self.lastSummaries, ids) {
            histories[try row.decode("id"), default: DomainHistory()].lastSummaryJSON = try row.decode("summary")
        }
        for row in try rows(Self.streaksOf, ids) {
            let streak = StreakRow(rule: try row.decode("rule"), subject: try row.decode("subject"),
                                   failing: try row.decode("failing"), passing: try row.decode("passing"),
                                   stateJSON: try row.decode("state"))
            histories[try row.decode("domain_id"), default: DomainHistory()].streaks.append(streak)
        }
        return histories
    }

    /// Replaces a domain's streaks (inside the check's transaction).
    func replaceStreaks(domainID: Int64, with streaks: [StreakRow], checkID: Int64?) throws {
        try execute("DELETE FROM alert_streaks WHERE domain_id = $1", domainID)
        for streak in streaks {
            try execute("""
                INSERT INTO alert_streaks (domain_id, rule, subject, failing, passing, last_check_id, state, updated_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, now())
                """, domainID, streak.rule, streak.subject, streak.failing, streak.passing, checkID, streak.stateJSON)
        }
    }

    static var lastSummaries: SQL {
        """
        SELECT d.id, c.summary::text AS summary FROM domains d JOIN checks c ON c.id = d.last_check_id
        WHERE d.id = ANY($1::bigint[]) AND c.summary IS NOT NULL
        """
    }

    static var streaksOf: SQL {
        """
        SELECT domain_id, rule, subject, failing, passing, state::text AS state FROM alert_streaks
        WHERE domain_id = ANY($1::bigint[]) ORDER BY rule, subject
        """
    }
}
