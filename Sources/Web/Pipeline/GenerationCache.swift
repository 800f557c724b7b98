import Foundation

/// A cache whose entries are good while the change counter has not moved past the value it had
/// when they were computed, and while they are younger than `ttl`. The counter makes changes
/// visible at once; the age bound covers what changes with time alone (relative times like
/// "3 min ago", a lease that runs out).
///
/// One computation per key at a time: requests that arrive while it runs wait for it instead of
/// all asking the database at once (64 connections would otherwise queue 64 identical overview
/// queries every time an entry expires or a change lands). A request that needs a newer generation
/// than the running computation's waits for it to finish and then computes once for itself and
/// everyone who waited with it, so however fast changes come, each request waits for at most two
/// computations. While an entry that is only too old is recomputed, the others get the old one, so
/// the age bound is `ttl` plus one computation; likewise for an entry computed at or after
/// `staleFloor` (changes the caller may see a moment late: other processes' changes, whose
/// notification comes after their commit anyway), so only the one request that recomputes waits.
final class GenerationCache<Value: Sendable>: @unchecked Sendable {
    private struct Entry {
        var generation: UInt64
        var computedAt: UInt64
        var value: Value
    }

    // Guarded by `condition`.
    private var entries: [String: Entry] = [:]
    /// Keys being computed, with the generation their computation started under.
    private var computing: [String: UInt64] = [:]
    private let condition = NSCondition()
    private let ttlNanoseconds: UInt64
    private let capacity: Int

    init(ttl: Duration, capacity: Int = 1000) {
        ttlNanoseconds = UInt64(ttl.components.seconds) * 1_000_000_000 + UInt64(ttl.components.attoseconds / 1_000_000_000)
        self.capacity = capacity
    }

    /// The cached value for `key` if computed under `generation()` or later and young enough, else
    /// `compute()` (kept when `cacheable`). `generation` is read again just before computing, so a
    /// change that lands during `compute` moves the counter past the stored entry's.
    func value(_ key: String, generation: () -> UInt64, staleFloor: (() -> UInt64)? = nil, cacheable: Bool,
               compute: () throws -> Value) rethrows -> Value {
        guard cacheable else { return try compute() }
        let needed = generation()
        let floor = min(needed, staleFloor?() ?? needed)
        condition.lock()
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            let entry = entries[key]
            if let entry, entry.generation >= needed, now &- entry.computedAt < ttlNanoseconds {
                condition.unlock()
                return entry.value
            }
            guard computing[key] != nil else { break }
            if let entry, entry.generation >= floor {
                // Good enough for this caller while its replacement is on the way.
                condition.unlock()
                return entry.value
            }
            condition.wait()
        }
        // Read under the lock, before computing: everyone waiting now asked at this generation or before.
        let startedUnder = generation()
        computing[key] = startedUnder
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
        entries[key] = Entry(generation: startedUnder, computedAt: started, value: value)
        condition.broadcast()
        condition.unlock()
        return value
    }
}
