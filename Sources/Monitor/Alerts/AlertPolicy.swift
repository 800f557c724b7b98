/// The knobs of the alert rules; per domain, defaults from the issue.
public struct AlertPolicy: Hashable, Sendable, Codable {
    /// Consecutive failing checks before an alert opens, so one timeout pages nobody.
    public var openAfter: Int
    /// Consecutive passing checks before an open alert resolves.
    public var resolveAfter: Int
    /// Days before certificate expiry at which to warn, each once.
    public var certificateThresholdDays: [Int]
    /// How long Apple's CDN may keep serving an older file than the origin before it is an alert.
    public var cdnGrace: Duration

    public init(openAfter: Int = 2, resolveAfter: Int = 1, certificateThresholdDays: [Int] = [14, 7, 1],
                cdnGrace: Duration = .seconds(48 * 3600)) {
        self.openAfter = max(openAfter, 1)
        self.resolveAfter = max(resolveAfter, 1)
        self.certificateThresholdDays = certificateThresholdDays.filter { $0 > 0 }.sorted(by: >)
        self.cdnGrace = cdnGrace
    }
}
