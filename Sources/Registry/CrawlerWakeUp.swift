import Monitor
import Store

/// Tells sleeping crawlers (in this process or any `aasa-monitor worker`) that domains want a check
/// now. The request itself is the `check_requested_at` row flag, which puts a domain at the head of
/// the scheduler's queue; the NOTIFY only saves the crawler from waiting for its next poll. The
/// scheduler's channel name is known here and in the scheduler, nowhere else.
struct CrawlerWakeUp: Sendable {
    let store: any Queryable & Sendable

    func notify() {
        // A lost NOTIFY costs at most one poll interval; the flag is already committed, so the
        // request stands and the caller must not fail because of it.
        try? store.notify(channel: DomainScheduler.checkNowChannel)
    }
}
