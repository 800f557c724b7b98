/// Checks and their history: results, unchanged repeats and their roll-ups, stored file versions, streaks, counters and metrics (tables `checks`, `check_repeats`, `check_repeat_days`, `check_rollups`, `association_versions`, `alert_streaks`, `domain_stats`).
///
/// One of Store's five aggregates (domains; checks and history; alerts and deliveries; accounts and
/// sessions; settings and channels). Each query file of this folder is an extension of this protocol,
/// so a caller that holds `some CheckStore` sees only these queries, not all of Store's. The pooled
/// `Database` and a transaction's `Connection` are all five at once.
public protocol CheckStore: Queryable {}

extension Database: CheckStore {}
extension Connection: CheckStore {}
