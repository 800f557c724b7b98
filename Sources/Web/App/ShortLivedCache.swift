import Foundation
import Synchronization

/// A tiny time-bounded cache for answers that may be a moment old: the overview's rows (a dashboard
/// refreshed by a crawler that runs every few minutes) and session lookups. Every state change made
/// through this app clears what it affects, so a person never sees their own change missing.
final class ShortLivedCache<Value: Sendable>: Sendable {
    private let entries = Mutex<[String: (expires: UInt64, value: Value)]>([:])
    private let ttlNanoseconds: UInt64
    private let capacity: Int

    init(ttl: Duration, capacity: Int = 1000) {
        ttlNanoseconds = UInt64(ttl.components.seconds) * 1_000_000_000 + UInt64(ttl.components.attoseconds / 1_000_000_000)
        self.capacity = capacity
    }

    func value(_ key: String, compute: () throws -> Value) rethrows -> Value {
        let now = DispatchTime.now().uptimeNanoseconds
        if let hit = entries.withLock({ $0[key] }), hit.expires > now { return hit.value }
        let value = try compute()
        entries.withLock { table in
            if table.count >= capacity { table.removeAll(keepingCapacity: true) }
            table[key] = (now + ttlNanoseconds, value)
        }
        return value
    }

    func removeAll() { entries.withLock { $0.removeAll() } }
}
