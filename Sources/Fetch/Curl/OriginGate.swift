/// Holds a transfer back while another transfer to the same origin (host and port) is still opening
/// its connection, so the requests of one check ride on one connection — HTTP/2 streams, or the kept
/// connection — instead of each opening its own with a full handshake.
///
/// curl's CURLOPT_PIPEWAIT does this only while it does not yet know whether the address speaks
/// HTTP/2. libcurl 7.88 keys that knowledge by the address it connects to, so behind one connect-to
/// rule (many hosts, one address: the test fleet, or a platform's own edge) it knew after the first
/// host, and every later check opened two connections (issue #17's 1M benchmark: 1.95 per check).
///
/// A connection that does not come within `patience` (a server that accepts and never answers) lets
/// what waits go and open its own, so a hanging host costs the check about one timeout, not one per request.
struct OriginGate<Item> {
    private struct Origin {
        var inFlight = 0
        /// A transfer has its connection, or the wait for it was given up: nothing is held any more.
        var open = false
        var since: ContinuousClock.Instant
        var held: [Item] = []
    }

    private var origins: [String: Origin] = [:]
    /// The origins that hold something back, so `overdue` does not walk every origin in flight.
    private var waitingOrigins: Set<String> = []
    private(set) var heldCount = 0
    let patience: Duration

    init(patience: Duration = .seconds(2)) {
        self.patience = patience
    }

    /// Whether `item` may start now; if so it counts as in flight until `finished` (also when it
    /// could not be started at all). If not, the gate keeps it until a transfer to `origin` has a
    /// connection (`connected`), the last one ends (`finished`) or the wait is `overdue`.
    mutating func admit(_ item: Item, origin: String, at now: ContinuousClock.Instant) -> Bool {
        if let state = origins[origin], !state.open {
            origins[origin]?.held.append(item)
            waitingOrigins.insert(origin)
            heldCount += 1
            return false
        }
        origins[origin, default: Origin(since: now)].inFlight += 1
        return true
    }

    /// A transfer to `origin` has its connection: what waited for it may start.
    mutating func connected(origin: String) -> [Item] {
        open(origin)
    }

    /// A transfer to `origin` ended. When it was the last one in flight, what still waits may start:
    /// its connection never came (refused, timed out), and they try their own.
    mutating func finished(origin: String) -> [Item] {
        guard var state = origins[origin] else { return [] }
        state.inFlight -= 1
        guard state.inFlight == 0 else {
            origins[origin] = state
            return []
        }
        guard !state.held.isEmpty else {
            origins[origin] = nil
            return []
        }
        // Kept open until they have started and ended, so they do not wait for each other.
        origins[origin] = state
        return open(origin)
    }

    /// What has waited longer than `patience` for a connection that has not come, as of `now`.
    mutating func overdue(at now: ContinuousClock.Instant) -> [Item] {
        var released: [Item] = []
        for origin in waitingOrigins {
            if let state = origins[origin], now - state.since >= patience { released += open(origin) }
        }
        return released
    }

    private mutating func open(_ origin: String) -> [Item] {
        guard var state = origins[origin] else { return [] }
        state.open = true
        let released = state.held
        state.held = []
        origins[origin] = state
        waitingOrigins.remove(origin)
        heldCount -= released.count
        return released
    }
}
