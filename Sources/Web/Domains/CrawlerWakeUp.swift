import Monitor
import Store

/// Tells sleeping crawlers (in this process or any `aasa-monitor worker`) that a domain wants a
/// check now. The request itself is the `check_requested_at` row flag, which puts the domain at the
/// head of the scheduler's queue; the NOTIFY only saves the crawler from waiting for its next poll.
enum CrawlerWakeUp {
    /// "Check now" from a page or the API: flag the domain, then wake the crawlers.
    static func requestCheck(_ database: Database, domainID: Int64) throws {
        try database.requestCheck(domainID: domainID)
        notify(database)
    }

    /// After a registration (whose first check is already requested by `createDomain`).
    static func notify(_ database: Database) {
        // A lost NOTIFY costs at most one poll interval; the flag is already committed, so the
        // user's request stands and the page must not fail because of it.
        try? database.notify(channel: DomainScheduler.checkNowChannel)
    }
}
