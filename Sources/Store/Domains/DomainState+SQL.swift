import Vocabulary

extension DomainState {
    /// A `domains` row's state (aliased `d`) in SQL, written from `DomainState(verdict:checking:)`
    /// so the overview's filter, its counts and the Swift side can never disagree: a check is
    /// running (requested or leased), else the domain's verdict in words, else never checked.
    static let sqlOfDomainRow = SQL(vocabularyFragment:
        "CASE WHEN d.check_requested_at IS NOT NULL OR d.lease_until > now() THEN '\(DomainState.checking.rawValue)' "
        + Verdict.allCases.map { "WHEN d.last_verdict = '\($0.rawValue)' THEN '\(DomainState(verdict: $0).rawValue)' " }.joined()
        + "ELSE '\(DomainState(verdict: nil).rawValue)' END")

    /// `worstFirstRank` of a column `state` holding a state's raw value, for ORDER BY.
    static let sqlWorstFirstRank = SQL(vocabularyFragment:
        "CASE state " + DomainState.allCases.map { "WHEN '\($0.rawValue)' THEN \($0.worstFirstRank) " }.joined() + "END")

    /// `worstFirstRank` of the state a `domains` row (`d`) shows when it is not being checked, from its
    /// verdict alone. Migration 0039's `domains_state_order` indexes this very expression (the same
    /// cases in the same order, which a test holds it to), so the overview's default order reads the
    /// index instead of ranking every domain.
    static let sqlVerdictRank = SQL(vocabularyFragment:
        "(CASE d.last_verdict " + Verdict.allCases.map { "WHEN '\($0.rawValue)' THEN \(DomainState(verdict: $0).worstFirstRank) " }.joined()
        + "ELSE \(DomainState(verdict: nil).worstFirstRank) END)")

    /// `worstFirstRank` of a state's raw value held in the SQL `expression` (a parameter), NULL for others.
    static func sqlRank(ofStateIn expression: StaticString) -> SQL {
        SQL(vocabularyFragment: "CASE \(expression) "
            + DomainState.allCases.map { "WHEN '\($0.rawValue)' THEN \($0.worstFirstRank) " }.joined() + "END")
    }
}
