import Glibc
import Synchronization

/// What SIGTERM/SIGINT stops: an HTTP server, or a process's own wait for a signal (the crawler
/// worker). Called on the relay's thread, never in the signal handler.
public protocol SignalStoppable: AnyObject, Sendable {
    func stopForSignal()
}

/// Graceful shutdown on SIGTERM/SIGINT. Signal dispositions are process-wide, so this is one
/// relay per process: the handler only writes the signal number to a pipe (async-signal-safe),
/// and a watcher thread calls `stopForSignal()` on what is registered. The handler runs on whichever
/// thread the kernel picks, so no thread's signal mask decides whether a signal is seen. When a signal
/// arrives and nothing is registered any more, the default action is restored and the signal re-raised,
/// so the process still terminates as usual.
public enum SignalShutdown {
    private struct Relay {
        var servers: [any SignalStoppable] = []
        var installed: Set<Int32> = []
        var started = false
    }

    private static let relay = Mutex(Relay())
    // Read by the C signal handler, which can capture nothing; written once, before any
    // handler is installed.
    nonisolated(unsafe) private static var pipeWriteFD: Int32 = -1

    /// Stops `server` on the first of `signals` from now on. The calling thread unblocks them: a process
    /// started with them blocked in every thread (a parent's mask is inherited) would otherwise never
    /// take one.
    public static func register(_ server: any SignalStoppable, signals: [Int32]) throws(SystemCallError) {
        try relay.withLock { (relay: inout Relay) throws(SystemCallError) in
            if !relay.started {
                var fds: [Int32] = [0, 0]
                _ = try checked("pipe") { pipe(&fds) }
                for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
                pipeWriteFD = fds[1]
                let readFD = fds[0]
                _ = try OSThread.spawn(name: "http-signals") { watch(readFD) }
                relay.started = true
            }
            if !relay.servers.contains(where: { $0 === server }) { relay.servers.append(server) }
            for number in signals where !relay.installed.contains(number) {
                var action = sigaction()
                action.__sigaction_handler.sa_handler = { number in
                    var byte = UInt8(truncatingIfNeeded: number)
                    _ = Glibc.write(SignalShutdown.pipeWriteFD, &byte, 1)
                }
                action.sa_flags = SA_RESTART
                sigemptyset(&action.sa_mask)
                _ = try checked("sigaction") { sigaction(number, &action, nil) }
                relay.installed.insert(number)
            }
            var unblocked = sigset_t()
            sigemptyset(&unblocked)
            for number in signals { sigaddset(&unblocked, number) }
            _ = pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        }
    }

    /// Signals no longer stop `server`; once nothing is registered they take their default action.
    public static func forget(_ server: any SignalStoppable) {
        relay.withLock { $0.servers.removeAll { $0 === server } }
    }

    private static func watch(_ fd: Int32) {
        var byte: UInt8 = 0
        while true {
            let n = Glibc.read(fd, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            guard n == 1 else { return }
            let number = Int32(byte)
            let servers = relay.withLock { $0.servers }
            if servers.isEmpty {
                relay.withLock { _ = $0.installed.remove(number) }
                signal(number, SIG_DFL)
                raise(number)
                continue
            }
            for server in servers { server.stopForSignal() }
        }
    }
}

extension HTTPServer: SignalStoppable {
    public func stopForSignal() { shutdown() }

    /// Shuts this server down gracefully on the given signals (SIGTERM and SIGINT by default).
    /// Once no server is running any more, those signals get their default action back.
    public func shutdownOnSignals(_ signals: [Int32] = [SIGTERM, SIGINT]) throws {
        try SignalShutdown.register(self, signals: signals)
    }
}
