import Dispatch
import Foundation
import Store

/// Writes unchanged checks in batches (group commit): the first repeat to arrive is written at
/// once; repeats that arrive while a batch is being written wait and go together in the next
/// statement. So a lone check waits for nothing, and under load one round trip carries many.
final class RepeatWriter: @unchecked Sendable {
    // @unchecked: `waiting` and `writing` are touched only while `lock` is held.
    private let lock = NSLock()
    private var waiting: [(record: RepeatRecord, done: CheckedContinuation<Result<Bool, any Error>, Never>)] = []
    private var writing = false
    private let database: Database
    private let maxBatch: Int

    init(database: Database, maxBatch: Int = 256) {
        self.database = database
        self.maxBatch = max(maxBatch, 1)
    }

    /// True when written, false when the lease was no longer this check's (nothing was written).
    func write(_ record: RepeatRecord) async throws -> Bool {
        let result = await withCheckedContinuation { (done: CheckedContinuation<Result<Bool, any Error>, Never>) in
            lock.lock()
            waiting.append((record, done))
            let start = !writing
            writing = true
            lock.unlock()
            // libpq blocks: the writing loop runs on a GCD thread, never on the cooperative pool.
            if start { DispatchQueue.global().async { self.drain() } }
        }
        return try result.get()
    }

    private func drain() {
        while true {
            lock.lock()
            guard !waiting.isEmpty else {
                writing = false
                lock.unlock()
                return
            }
            let batch = Array(waiting.prefix(maxBatch))
            waiting.removeFirst(batch.count)
            lock.unlock()
            // A failed batch fails each of its checks; each caller decides whether to try again.
            let outcome = Result { try database.recordRepeats(batch.map(\.record)) }
            for (record, done) in batch {
                done.resume(returning: outcome.map { $0.contains(record.domainID) })
            }
        }
    }
}
