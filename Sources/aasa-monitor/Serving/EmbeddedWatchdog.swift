import Foundation
import Store
import Synchronization

/// Restarts the embedded PostgreSQL if it dies while `serve` runs (a crash, an OOM kill, someone's
/// pg_ctl stop), so /healthz goes 503 and then recovers by itself instead of staying down.
final class EmbeddedWatchdog: Sendable {
    private let server: EmbeddedPostgres
    private let interval: Duration
    private let stopping = Mutex(false)
    private let finished = DispatchSemaphore(value: 0)

    init(server: EmbeddedPostgres, interval: Duration = .seconds(5)) {
        self.server = server
        self.interval = interval
    }

    func start() {
        let thread = Thread { [self] in
            while !stopping.withLock({ $0 }) {
                do {
                    if try server.ensureRunning() { StandardError.log("the embedded PostgreSQL had stopped; started it again") }
                } catch {
                    StandardError.log("the embedded PostgreSQL is down and could not be restarted: \(error)")
                }
                // Sleep in short steps so stop() does not wait a whole interval.
                let deadline = ContinuousClock.now + interval
                while ContinuousClock.now < deadline && !stopping.withLock({ $0 }) {
                    Thread.sleep(forTimeInterval: 0.1)
                }
            }
            finished.signal()
        }
        thread.name = "embedded-postgres-watchdog"
        thread.start()
    }

    func stop() {
        stopping.withLock { $0 = true }
        finished.wait()
    }
}
