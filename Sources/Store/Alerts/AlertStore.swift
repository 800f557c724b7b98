/// Alerts and their deliveries: incidents opened and resolved, the notification outbox and its attempts (tables `alerts`, `deliveries`, `delivery_attempts`).
///
/// One of Store's five aggregates (domains; checks and history; alerts and deliveries; accounts and
/// sessions; settings and channels). Each query file of this folder is an extension of this protocol,
/// so a caller that holds `some AlertStore` sees only these queries, not all of Store's. The pooled
/// `Database` and a transaction's `Connection` are all five at once.
public protocol AlertStore: Queryable {}

extension Database: AlertStore {}
extension Connection: AlertStore {}
