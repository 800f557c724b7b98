import Foundation
import Store
import Testing

/// The one wake-up signal the scheduler (async) and the delivery threads (blocking) share.
@Suite struct WakeSignalTests {
    @Test func aSignalSentBeforeTheAsyncWaitIsKept() async {
        let wake = WakeSignal()
        wake.signal()
        // Returns at once: the signal came since the last return. A lost signal would wait out the hour.
        await wake.wait(timeout: .seconds(3600))
        #expect(wake.current == 1)
    }

    @Test func anAsyncWaitWithoutASignalEndsAtItsTimeout() async {
        let wake = WakeSignal()
        await wake.wait(timeout: .milliseconds(10))
        #expect(wake.current == 0 && !wake.isStopped)
    }

    @Test func aSignalWakesAnAsyncWaiter() async {
        let wake = WakeSignal()
        async let waited: Void = wake.wait(timeout: .seconds(3600))
        // Signal until the waiter has returned: the first may come before it waits (and is kept).
        let signaller = Task {
            while !Task.isCancelled {
                wake.signal()
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        await waited
        signaller.cancel()
        #expect(wake.current >= 1)
    }

    @Test func threadsWaitForTheGenerationToMove() {
        let wake = WakeSignal()
        let seen = wake.current
        wake.signal()
        // The generation already moved past `seen`: no wait at all.
        wake.wait(after: seen, seconds: 3600)
        let thread = Thread { wake.stop() }
        thread.start()
        wake.wait(after: wake.current, seconds: 3600)
        #expect(wake.isStopped)
    }
}
