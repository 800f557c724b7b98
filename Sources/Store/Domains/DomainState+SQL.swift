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
}
