import Synchronization

/// Slows password guessing without letting a stranger lock the owner out. Failures count per
/// account *and* address, and per address alone (one address trying many accounts); past a few free
/// attempts every further failure doubles the wait. Whoever keeps guessing waits longer and longer,
/// while the owner, logging in from another address, is not held up by someone else's failures.
/// Pure state with the time passed in, so the rules are table-tested; `LoginLimiter` wraps it for
/// concurrent use.
public struct LoginThrottle: Sendable {
    /// Failed attempts allowed for one account from one address before waits begin (a person mistyping).
    public var freePerAccountAndAddress = 5
    /// Failed attempts allowed from one address, over all accounts.
    public var freePerAddress = 20
    /// The wait after the last free failure; each failure after it doubles the wait, up to `longestWait`.
    public var firstWait: Int64 = 60
    public var longestWait: Int64 = 3600
    /// Failures are forgotten this long after the last one.
    public var memory: Int64 = 24 * 3600

    struct Tally: Sendable {
        var failures: Int
        var last: Int64
    }
    private var tallies: [String: Tally] = [:]

    public init() {}

    /// Seconds to wait before the next attempt is allowed, 0 when it is allowed now.
    public func retryAfter(address: String, account: String, now: Int64) -> Int64 {
        var wait: Int64 = 0
        for (key, free) in [(Self.pairKey(address, account), freePerAccountAndAddress), (Self.addressKey(address), freePerAddress)] {
            guard let tally = current(key, now), tally.failures >= free else { continue }
            wait = max(wait, tally.last + self.wait(afterExcessFailures: tally.failures - free) - now)
        }
        return wait
    }

    /// The wait after `excess` failures beyond the free ones: firstWait, doubling per failure.
    func wait(afterExcessFailures excess: Int) -> Int64 {
        let doublings = min(excess, 20)
        return min(longestWait, firstWait << Int64(doublings))
    }

    public mutating func recordFailure(address: String, account: String, now: Int64) {
        for key in [Self.pairKey(address, account), Self.addressKey(address)] {
            var tally = current(key, now) ?? Tally(failures: 0, last: now)
            tally.failures += 1
            tally.last = now
            tallies[key] = tally
        }
        // Keep the table bounded under a flood of distinct names.
        if tallies.count > 50_000 { tallies = tallies.filter { now - $0.value.last < memory } }
    }

    /// The right password from this address: its count for the account starts over. The address's
    /// own count stays, so one valid account does not license guessing at the others.
    public mutating func recordSuccess(address: String, account: String) {
        tallies[Self.pairKey(address, account)] = nil
    }

    private func current(_ key: String, _ now: Int64) -> Tally? {
        guard let tally = tallies[key], now - tally.last < memory else { return nil }
        return tally
    }

    static func pairKey(_ address: String, _ account: String) -> String { "acct:" + account.lowercased() + " ip:" + address }
    static func addressKey(_ address: String) -> String { "ip:" + address }
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
    public func recordSuccess(address: String, account: String) {
        state.withLock { $0.recordSuccess(address: address, account: account) }
    }
}
