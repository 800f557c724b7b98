import Synchronization

/// Limits failed logins per client address and per account, in a sliding window. Pure state with the
/// time passed in, so the rules are table-tested; `LoginLimiter` wraps it for concurrent use.
public struct LoginThrottle: Sendable {
    public var window: Int64 = 15 * 60
    public var maxPerAccount = 5
    public var maxPerAddress = 20
    private var failures: [String: [Int64]] = [:]

    public init() {}

    /// Seconds to wait before the next attempt is allowed, 0 when it is allowed now.
    public func retryAfter(address: String, account: String, now: Int64) -> Int64 {
        let a = pruned("ip:" + address, now), b = pruned("acct:" + account.lowercased(), now)
        var wait: Int64 = 0
        if a.count >= maxPerAddress, let oldest = a.first { wait = max(wait, oldest + window - now) }
        if b.count >= maxPerAccount, let oldest = b.first { wait = max(wait, oldest + window - now) }
        return wait
    }

    public mutating func recordFailure(address: String, account: String, now: Int64) {
        for key in ["ip:" + address, "acct:" + account.lowercased()] {
            var list = pruned(key, now)
            list.append(now)
            failures[key] = list
        }
        // Keep the table bounded under a flood of distinct names.
        if failures.count > 50_000 { failures = failures.filter { !$0.value.allSatisfy { $0 <= now - window } } }
    }

    public mutating func recordSuccess(account: String) {
        failures["acct:" + account.lowercased()] = nil
    }

    private func pruned(_ key: String, _ now: Int64) -> [Int64] {
        (failures[key] ?? []).filter { $0 > now - window }
    }
}

public final class LoginLimiter: Sendable {
    private let state = Mutex(LoginThrottle())
    public init() {}
    public func retryAfter(address: String, account: String, now: Int64) -> Int64 {
        state.withLock { $0.retryAfter(address: address, account: account, now: now) }
    }
    public func recordFailure(address: String, account: String, now: Int64) {
        state.withLock { $0.recordFailure(address: address, account: account, now: now) }
    }
    public func recordSuccess(account: String) { state.withLock { $0.recordSuccess(account: account) } }
}
