import Foundation
import Synchronization

/// Deletes expired sessions on a schedule. An expired session stops authenticating at once (expiry
/// is checked on every request); this keeps the rows of sessions nobody logged out of from piling
/// up. A thread of its own: libpq blocks, and one statement an hour needs no worker of the pool.
final class SessionPurge: Sendable {
    let sessions: Sessions
    let interval: Duration
    private let started = Atomic<Bool>(false)
    private let stopRequested = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    init(sessions: Sessions, interval: Duration) {
        self.sessions = sessions
        self.interval = interval
    }

    /// Purges now, then every `interval`, until `stop`.
    func start() {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = Thread { [self] in
            repeat {
                do {
                    try sessions.purgeExpired()
                } catch {
                    // The next round tries again; an outage is already visible on every page.
                    FileHandle.standardError.write(Data("web: purging expired sessions failed: \(error)\n".utf8))
                }
            } while stopRequested.wait(timeout: .now() + .milliseconds(Int(interval.components.seconds * 1000))) == .timedOut
            finished.signal()
        }
        thread.name = "session-purge"
        thread.start()
    }

    /// Returns once the thread is gone (at once when it is waiting, after the statement otherwise).
    func stop() {
        guard started.load(ordering: .acquiring) else { return }
        stopRequested.signal()
        finished.wait()
    }
}

extension Sessions {
    /// Deletes the sessions past their expiry; returns how many.
    @discardableResult
    func purgeExpired() throws -> Int {
        let purged = try database.deleteExpiredSessions()
        if purged > 0 { changes.accountsChanged() }
        return purged
    }
}
