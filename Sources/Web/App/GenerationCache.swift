import Foundation

/// A cache whose entries are good while the change counter they were computed under has not moved
/// and they are younger than `ttl`. The counter makes changes visible at once; the age bound covers
/// what changes with time alone (relative times like "3 min ago", a lease that runs out).
///
/// One computation per key at a time: requests that arrive while it runs wait for its result
/// instead of all asking the database at once (64 connections would otherwise queue 64 identical
/// overview queries every time an entry expires). While an entry that is only too old (not out of
/// date) is being recomputed, the others get the old one, so the age bound is `ttl` plus one
/// computation.
final class GenerationCache<Value: Sendable>: @unchecked Sendable {
    private struct Entry {
        var generation: UInt64
        var computedAt: UInt64
        var value: Value
    }

    // Guarded by `condition`.
    private var entries: [String: Entry] = [:]
    /// Keys being computed, with the generation they are computed under.
    private var computing: [String: UInt64] = [:]
    private let condition = NSCondition()
    private let ttlNanoseconds: UInt64
    private let capacity: Int

    init(ttl: Duration, capacity: Int = 1000) {
        ttlNanoseconds = UInt64(ttl.components.seconds) * 1_000_000_000 + UInt64(ttl.components.attoseconds / 1_000_000_000)
        self.capacity = capacity
    }

    /// The cached value for `key` if still good for `generation`, else `compute()` (stored when
    /// `cacheable`). Read `generation` before calling: a change that lands during `compute` then
    /// moves the counter past the stored entry's.
    func value(_ key: String, generation: UInt64, cacheable: Bool, compute: () throws -> Value) rethrows -> Value {
        guard cacheable else { return try compute() }
        condition.lock()
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            let entry = entries[key].flatMap { $0.generation == generation ? $0 : nil }
            if let entry, now &- entry.computedAt < ttlNanoseconds {
                condition.unlock()
                return entry.value
            }
            guard let running = computing[key] else { break }
            if let entry, running == generation {
                // Only too old, and its replacement is on the way.
                condition.unlock()
                return entry.value
            }
            if running != generation {
                // A computation for another generation: not ours to wait for.
                condition.unlock()
                return try compute()
            }
            condition.wait()
        }
        computing[key] = generation
        condition.unlock()
        // The age counts from before the computation read anything.
        let started = DispatchTime.now().uptimeNanoseconds
        let value: Value
        do {
            value = try compute()
        } catch {
            condition.lock()
            computing[key] = nil
            condition.broadcast()
            condition.unlock()
            throw error
        }
        condition.lock()
        computing[key] = nil
        if entries.count >= capacity && entries[key] == nil { entries.removeAll(keepingCapacity: true) }
        // Never replace a newer generation's entry with an older one.
        if (entries[key]?.generation ?? 0) <= generation {
            entries[key] = Entry(generation: generation, computedAt: started, value: value)
        }
        condition.broadcast()
        condition.unlock()
        return value
    }
}
