import Synchronization

/// What all event loops of one server share: read-only configuration and responder, the worker
/// pool, and the live connection count that enforces `maxConnections` across loops.
final class ServerCore: Sendable {
    let configuration: HTTPServerConfiguration
    let responder: any HTTPResponder
    let workers: WorkerPool
    let connectionCount = Atomic<Int>(0)
    /// Streamed bodies being sent, across loops; `maxConcurrentStreams` caps it.
    let streamCount = Atomic<Int>(0)
    /// Set by the accepting loop once it closed the listener; the other loops drain until then.
    let listenerClosed = Atomic<Bool>(false)

    init(configuration: HTTPServerConfiguration, responder: any HTTPResponder, workers: WorkerPool) {
        self.configuration = configuration
        self.responder = responder
        self.workers = workers
    }
}
