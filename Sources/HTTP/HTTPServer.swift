import Glibc
import Synchronization

/// An HTTP/1.1 server on raw sockets: event-loop threads on epoll do all socket I/O without
/// blocking; `.offload` handlers run on a bounded worker pool.
///
/// Lifecycle: `start()` binds and returns (read `port` when you asked for port 0); `shutdown()`
/// stops accepting, lets requests in flight finish, and closes; `wait()` blocks until that is done.
/// `run()` is `start()` then `wait()`.
public final class HTTPServer: Sendable {
    private enum Phase {
        case idle
        case running(loops: [EventLoop], threads: [OSThread], workers: WorkerPool, core: ServerCore)
        case stopped
    }

    public let configuration: HTTPServerConfiguration
    private let responder: any HTTPResponder
    private let phase = Mutex(Phase.idle)
    private let boundPort = Atomic<Int>(0)
    private let shutdownRequested = Atomic<Bool>(false)
    private let waiting = Mutex(())

    public init(configuration: HTTPServerConfiguration, responder: any HTTPResponder) {
        self.configuration = configuration
        self.responder = responder
    }

    public convenience init(configuration: HTTPServerConfiguration,
                            handler: @escaping @Sendable (HTTPRequest) -> HTTPHandling) {
        self.init(configuration: configuration, responder: HTTPClosureResponder(handler))
    }

    /// The port the server listens on (the chosen one when configured with port 0); 0 before `start()`.
    public var port: Int { boundPort.load(ordering: .acquiring) }

    /// Binds the listening socket and starts the threads. Throws if the address cannot be bound.
    public func start() throws {
        // A peer that resets while we write must be an EPIPE, not a process-killing signal.
        signal(SIGPIPE, SIG_IGN)
        try phase.withLock { phase throws in
            guard case .idle = phase else { return }
            let config = configuration
            let (listenFD, port) = try ListeningSocket.open(host: config.host, port: config.port, backlog: config.backlog)
            var loops: [EventLoop] = []
            var threads: [OSThread] = []
            let workers: WorkerPool
            do {
                workers = try WorkerPool(threadCount: config.workerCount, queueCapacity: config.maxQueuedRequests)
            } catch {
                Glibc.close(listenFD)
                throw error
            }
            let core = ServerCore(configuration: config, responder: responder, workers: workers)
            do {
                for index in 0..<max(1, config.eventLoopCount) {
                    loops.append(try EventLoop(index: index, core: core))
                }
                try loops[0].adoptListener(listenFD, peers: loops)
            } catch {
                Glibc.close(listenFD)
                workers.stop()
                throw error
            }
            for loop in loops {
                threads.append(try OSThread.spawn(name: "http-loop-\(loop.index)") { loop.run() })
            }
            boundPort.store(port, ordering: .releasing)
            phase = .running(loops: loops, threads: threads, workers: workers, core: core)
        }
        if shutdownRequested.load(ordering: .acquiring) { shutdown() }
    }

    /// Begins a graceful shutdown and returns at once: no new connections; requests in flight
    /// finish (within `shutdownGracePeriod`); keep-alive connections close after their answer.
    public func shutdown() {
        shutdownRequested.store(true, ordering: .releasing)
        phase.withLock { phase in
            if case .running(let loops, _, _, _) = phase {
                for loop in loops { loop.requestShutdown() }
            }
        }
    }

    /// Blocks until the server has shut down and its threads have ended.
    public func wait() {
        // Serialised: a second waiter blocks here until the first has joined the threads
        // (joining a thread twice is undefined).
        waiting.withLock { _ in
            let running: ([OSThread], WorkerPool)? = phase.withLock { phase in
                if case .running(_, let threads, let workers, _) = phase { return (threads, workers) }
                return nil
            }
            guard let (threads, workers) = running else { return }
            for thread in threads { thread.join() }
            workers.stop()
            phase.withLock { $0 = .stopped }
        }
        SignalShutdown.forget(self)
    }

    /// Connections open now and streamed bodies being sent now (0 when not running): what a
    /// client that went away must give back.
    var liveCounts: (connections: Int, streams: Int) {
        phase.withLock { phase in
            guard case .running(_, _, _, let core) = phase else { return (0, 0) }
            return (core.connectionCount.load(ordering: .relaxed), core.streamCount.load(ordering: .relaxed))
        }
    }

    /// Starts, then blocks until shut down.
    public func run() throws {
        try start()
        wait()
    }
}
