import Synchronization

/// In-process counters the web layer adds to /metrics (the rest comes from the database).
public final class WebMetrics: Sendable {
    private let counts = Mutex<[String: Int]>([:])
    public init() {}

    func count(_ key: String) { counts.withLock { $0[key, default: 0] += 1 } }
    var snapshot: [String: Int] { counts.withLock { $0 } }
}
