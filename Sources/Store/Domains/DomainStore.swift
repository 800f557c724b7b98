/// Domains and what is expected of them: registration, edits, leases, the overview and list, expectations, the domain's current state (tables `domains`, `expected_app_ids`, `watched_urls`).
///
/// One of Store's five aggregates (domains; checks and history; alerts and deliveries; accounts and
/// sessions; settings and channels). Each query file of this folder is an extension of this protocol,
/// so a caller that holds `some DomainStore` sees only these queries, not all of Store's. The pooled
/// `Database` and a transaction's `Connection` are all five at once.
public protocol DomainStore: Queryable {}

extension Database: DomainStore {}
extension Connection: DomainStore {}
