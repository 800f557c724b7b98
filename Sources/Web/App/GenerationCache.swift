import Foundation
import Synchronization

/// A cache whose entries are good while the change counter they were computed under has not moved
/// and they are younger than `ttl`. The counter makes changes visible at once; the age bound covers
/// what changes with time alone (relative times like "3 min ago", a lease that runs out).
final class GenerationCache<Value: Sendable>: Sendable {
    private struct Entry {
        var generation: UInt64
        var computedAt: UInt64
        var value: Value
    }

    private let entries = Mutex<[String: Entry]>([:])
    private let ttlNanoseconds: UInt64
    private let capacity: Int

    init(ttl: Duration, capacity: Int = 1000) {
        ttlNanoseconds = UInt64(ttl.components.seconds) * 1_000_000_000 + UInt64(ttl.components.attoseconds / 1_000_000_000)
        self.capacity = capacity
    }

    /// The cached value for `key` if still good for `generation`, else `compute()` (stored when
    /// `cacheable`). Read `generation` before computing: a change that lands during `compute` then
    /// moves the counter past the stored entry's.
    func value(_ key: String, generation: UInt64, cacheable: Bool, compute: () throws -> Value) rethrows -> Value {
        guard cacheable else { return try compute() }
        let now = DispatchTime.now().uptimeNanoseconds
        if let hit = entries.withLock({ $0[key] }), hit.generation == generation, now &- hit.computedAt < ttlNanoseconds {
            return hit.value
        }
        let value = try compute()
        entries.withLock { table in
            if table.count >= capacity { table.removeAll(keepingCapacity: true) }
            table[key] = Entry(generation: generation, computedAt: now, value: value)
        }
        return value
    }

    func removeAll() { entries.withLock { $0.removeAll() } }
}
