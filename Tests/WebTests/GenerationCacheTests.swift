import Testing
import Foundation
import Synchronization
@testable import Web

@Suite struct GenerationCacheTests {
    /// Runs `body` on `count` threads of their own (blocking is the point) and waits for all.
    func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let done = DispatchSemaphore(value: 0)
        for i in 0..<count {
            Thread { body(i); done.signal() }.start()
        }
        for _ in 0..<count { done.wait() }
    }

    @Test func concurrentMissesComputeOnce() {
        let cache = GenerationCache<Int>(ttl: .seconds(3600))
        let asked = Atomic<Int>(0), computed = Atomic<Int>(0)
        let results = Mutex<[Int]>([])
        onThreads(8) { _ in
            asked.add(1, ordering: .relaxed)
            let v = cache.value("k", generation: { 1 }, cacheable: true) {
                computed.add(1, ordering: .relaxed)
                // Hold the computation until every thread has asked (or a deadline passes).
                let deadline = ContinuousClock.now + .seconds(10)
                while asked.load(ordering: .relaxed) < 8 && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.001) }
                return 42
            }
            results.withLock { $0.append(v) }
        }
        #expect(computed.load(ordering: .relaxed) == 1)
        #expect(results.withLock { $0 } == Array(repeating: 42, count: 8))
    }

    @Test func aNewGenerationIsNeverAnsweredFromAnOldOne() {
        let cache = GenerationCache<String>(ttl: .seconds(3600))
        #expect(cache.value("k", generation: { 1 }, cacheable: true) { "one" } == "one")
        #expect(cache.value("k", generation: { 1 }, cacheable: true) { "again" } == "one")
        #expect(cache.value("k", generation: { 2 }, cacheable: true) { "two" } == "two")
        #expect(cache.value("k", generation: { 2 }, cacheable: true) { "again" } == "two")
        // Not cacheable (the change feed is down): always computed, nothing kept.
        #expect(cache.value("k", generation: { 2 }, cacheable: false) { "fresh" } == "fresh")
        #expect(cache.value("other", generation: { 2 }, cacheable: true) { "other" } == "other")
    }

    @Test func entriesExpireAfterTheirLifetime() {
        let cache = GenerationCache<Int>(ttl: .milliseconds(20))
        #expect(cache.value("k", generation: { 1 }, cacheable: true) { 1 } == 1)
        let deadline = ContinuousClock.now + .seconds(10)
        var latest = 1
        while latest == 1 && ContinuousClock.now < deadline {
            latest = cache.value("k", generation: { 1 }, cacheable: true) { 2 }
            Thread.sleep(forTimeInterval: 0.005)
        }
        #expect(latest == 2)
    }

    @Test func aFailedComputationLeavesNothingBehind() throws {
        struct Failure: Error {}
        let cache = GenerationCache<Int>(ttl: .seconds(3600))
        #expect(throws: Failure.self) { try cache.value("k", generation: { 1 }, cacheable: true) { throw Failure() } }
        #expect(cache.value("k", generation: { 1 }, cacheable: true) { 7 } == 7)
    }
}

extension GenerationCacheTests {
    @Test func aChangeDuringAComputationIsNotHiddenByIt() {
        let cache = GenerationCache<String>(ttl: .seconds(3600))
        let generation = Atomic<UInt64>(1)
        let inside = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let first = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            let v = cache.value("k", generation: { generation.load(ordering: .relaxed) }, cacheable: true) {
                inside.signal()
                release.wait()
                return "read before the change"
            }
            first.withLock { $0 = v }
            done.signal()
        }.start()
        inside.wait()
        // A change lands while the computation runs; whoever asks after it must not get that result.
        generation.add(1, ordering: .relaxed)
        Thread {
            _ = cache.value("k", generation: { generation.load(ordering: .relaxed) }, cacheable: true) { "second" }
            done.signal()
        }.start()
        release.signal()
        done.wait()
        done.wait()
        #expect(first.withLock { $0 } == "read before the change")
        #expect(cache.value("k", generation: { generation.load(ordering: .relaxed) }, cacheable: true) { "third" } != "read before the change")
    }
}

extension GenerationCacheTests {
    @Test func aPageAtOrAfterTheFloorIsShownWhileItsReplacementIsComputed() {
        let cache = GenerationCache<String>(ttl: .seconds(3600))
        #expect(cache.value("k", generation: { 1 }, cacheable: true) { "one" } == "one")
        let inside = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        let waiter = Mutex<String?>(nil)
        Thread {
            _ = cache.value("k", generation: { 2 }, staleFloor: { 1 }, cacheable: true) {
                inside.signal()
                release.wait()
                return "two"
            }
            done.signal()
        }.start()
        inside.wait()
        // A change by another process (floor still 1): the previous page, without waiting.
        #expect(cache.value("k", generation: { 2 }, staleFloor: { 1 }, cacheable: true) { "unexpected" } == "one")
        // After a change made through the app (floor 2): never the previous page; it waits for the new one.
        Thread {
            let v = cache.value("k", generation: { 2 }, staleFloor: { 2 }, cacheable: true) { "computed by the waiter" }
            waiter.withLock { $0 = v }
            done.signal()
        }.start()
        release.signal()
        done.wait()
        done.wait()
        #expect(waiter.withLock { $0 } == "two")
        #expect(cache.value("k", generation: { 2 }, staleFloor: { 2 }, cacheable: true) { "again" } == "two")
    }
}
