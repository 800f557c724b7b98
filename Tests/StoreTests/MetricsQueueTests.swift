import Foundation
import Store
import TestSupport
import Testing

/// /metrics' check queue (issue #17): the depth counts what the lease would take — requested or due,
/// not paused, not leased (a lease that ran out counts again) — up to a limit, so a backlog of
/// hundreds of thousands costs no more than the limit; the lag says how long the longest-waiting
/// domain has been due.
@Suite struct MetricsQueueTests {
    /// What the lease's conditions select, counted from every row.
    static func queuedFromScratch(_ db: Database) throws -> Int {
        try db.value("""
            SELECT count(*) FROM domains WHERE NOT paused AND (lease_until IS NULL OR lease_until < now())
              AND (check_requested_at IS NOT NULL OR next_check_at <= now())
            """)
    }

    @Test func depthCountsWhatALeaseWouldTakeUpToTheLimitAndLagTheLongestWait() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            var ids: [Int64] = []
            for i in 0..<7 {
                guard case .created(let id) = try db.createDomain(DomainDraft(host: "q\(i).example", displayName: "q\(i).example",
                    wildcard: false, intervalSeconds: 3600, badgeEnabled: false, appIDs: [], watchedURLs: []), requestFirstCheck: false) else {
                    Issue.record("q\(i) not created"); return
                }
                ids.append(id)
            }
            try db.execute("UPDATE domains SET next_check_at = now() + interval '1 hour'")
            var m = try db.monitorMetrics()
            #expect(m.queueDepth == 0 && !m.queueDepthLimited && m.queueLagSeconds == 0, "nothing due")

            // Due an hour ago (the longest wait), due a minute ago, requested though not due, due but
            // paused, due and leased to a worker, due with a lease that ran out; one stays not due.
            try db.execute("UPDATE domains SET next_check_at = now() - interval '1 hour' WHERE id = $1", ids[0])
            try db.execute("UPDATE domains SET next_check_at = now() - interval '1 minute' WHERE id = $1", ids[1])
            try db.execute("UPDATE domains SET check_requested_at = now() - interval '5 seconds' WHERE id = $1", ids[2])
            try db.execute("UPDATE domains SET next_check_at = now() - interval '2 hours', paused = true WHERE id = $1", ids[3])
            try db.execute("""
                UPDATE domains SET next_check_at = now() - interval '3 hours', lease_until = now() + interval '1 minute', leased_by = 'w'
                WHERE id = $1
                """, ids[4])
            try db.execute("""
                UPDATE domains SET next_check_at = now() - interval '30 minutes', lease_until = now() - interval '1 minute', leased_by = 'w'
                WHERE id = $1
                """, ids[5])
            m = try db.monitorMetrics()
            #expect(m.queueDepth == 4 && !m.queueDepthLimited, "due, due, requested, lease ran out: \(m.queueDepth)")
            #expect(m.queueDepth == (try Self.queuedFromScratch(db)))
            // The paused and the leased domain waited longer, but are not in the queue.
            #expect(m.queueLagSeconds >= 3600 && m.queueLagSeconds < 2 * 3600, "\(m.queueLagSeconds)")

            // Past the limit the depth reads the limit and says so; the lag still reads the whole queue.
            m = try db.monitorMetrics(queueDepthLimit: 3)
            #expect(m.queueDepth == 3 && m.queueDepthLimited)
            #expect(m.queueLagSeconds >= 3600)
            m = try db.monitorMetrics(queueDepthLimit: 4)
            #expect(m.queueDepth == 4 && !m.queueDepthLimited, "exactly the limit is not past it")

            // The requested domains alone past the limit (a "check all"), and due ones beside them.
            try db.execute("UPDATE domains SET check_requested_at = now() WHERE id = ANY($1)", SQLArray([ids[0], ids[1], ids[6]]))
            m = try db.monitorMetrics(queueDepthLimit: 2)
            #expect(m.queueDepth == 2 && m.queueDepthLimited)
            m = try db.monitorMetrics()
            #expect(m.queueDepth == (try Self.queuedFromScratch(db)) && m.queueDepth == 5, "\(m.queueDepth)")
            #expect(m.queueLagSeconds >= 3600, "a due domain requested since has waited since it fell due: \(m.queueLagSeconds)")
        }
    }
}
