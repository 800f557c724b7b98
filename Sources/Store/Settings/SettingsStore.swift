/// Instance settings and notification channels (tables `settings`, `channels`, `channel_domains`).
///
/// One of Store's five aggregates (domains; checks and history; alerts and deliveries; accounts and
/// sessions; settings and channels). Each query file of this folder is an extension of this protocol,
/// so a caller that holds `some SettingsStore` sees only these queries, not all of Store's. The pooled
/// `Database` and a transaction's `Connection` are all five at once.
public protocol SettingsStore: Queryable {}

extension Database: SettingsStore {}
extension Connection: SettingsStore {}
