/// When to try a failed delivery again: exponential backoff from `initialDelay`, doubled per
/// attempt up to `maximumDelay`, with jitter so that many deliveries failing together (a receiver
/// restarting) do not all come back in the same second. How long to keep trying is the outbox row's
/// horizon (24 hours by default), fixed when the row is written.
public struct RetryPolicy: Sendable, Equatable {
    public var initialDelay: Duration
    public var maximumDelay: Duration
    /// Each delay is drawn uniformly from [(1 - jitter) × d, d].
    public var jitter: Double

    public init(initialDelay: Duration = .seconds(30), maximumDelay: Duration = .seconds(3600), jitter: Double = 0.5) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.jitter = min(max(jitter, 0), 1)
    }

    /// Delay in seconds after the `attempt`-th failed attempt (1-based).
    public func delaySeconds(afterAttempt attempt: Int, random: Double = Double.random(in: 0...1)) -> Double {
        let base = seconds(initialDelay)
        let cap = seconds(maximumDelay)
        let exponent = min(max(attempt - 1, 0), 40)
        let full = min(cap, base * Double(1 << UInt64(min(exponent, 62))))
        return full * (1 - jitter * random)
    }

    private func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}
