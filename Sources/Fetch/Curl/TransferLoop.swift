import CCurl
import CShim
import Foundation
import Outbound
import Vocabulary

/// Runs every transfer of a `Fetcher` on one thread through the curl multi interface, so
/// thousands of fetches share one thread and one connection cache. Admission control keeps at
/// most `maxTotal` transfers in flight, and at most `maxPerAddress` towards one IP address.
final class TransferLoop: @unchecked Sendable {
    private typealias Item = (TransferRequest, @Sendable (TransportFacts) -> Void)

    // Shared with submitters; guarded by `lock`.
    private let lock = NSLock()
    private var submitted: [Item] = []
    private var stopping = false
    private var published = FetcherStatistics()

    // Owned by the loop thread.
    private let multi: UnsafeMutableRawPointer
    private let settings: TransferSettings
    private let maxTotal: Int
    private let maxPerAddress: Int
    private var waiting: [String: ArraySlice<Item>] = [:]
    private var waitingOrder: [String] = []
    private var waitingCount = 0
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    private var activePerAddress: [String: Int] = [:]
    private var gate = OriginGate<Item>()
    /// Set when the gate handed transfers back during a turn: the next turn starts them without
    /// first waiting on the sockets.
    private var released = false
    private let connections = ConnectionCertificates()
    /// Share handles holding TLS sessions only (CURL_LOCK_DATA_SSL_SESSION), 8 each in libcurl 7.88;
    /// a host always uses the same one, so its session survives between its checks. Connections stay
    /// in the multi handle's cache (a share with connections would take them out of it). Every easy
    /// handle that uses them runs on the loop thread, so no lock callbacks are set: libcurl needs them
    /// only when a share is used from several threads at once.
    private let sessionShares: [UnsafeMutableRawPointer]
    private let finished = NSCondition()
    private var threadDone = false

    init(settings: TransferSettings, maxTotal: Int, maxPerAddress: Int, tlsSessions: Int = 0) {
        CurlGlobal.initializeOnce()
        guard let multi = curl_multi_init() else { preconditionFailure("curl_multi_init failed: out of memory") }
        self.multi = multi
        self.sessionShares = (0..<(max(tlsSessions, 0) + 7) / 8).compactMap { _ in
            guard let share = curl_share_init() else { return nil }
            guard cshim_curl_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_SSL_SESSION.rawValue)) == CURLSHE_OK else {
                curl_share_cleanup(share)
                return nil
            }
            return share
        }
        self.settings = settings
        self.maxTotal = max(1, maxTotal)
        self.maxPerAddress = max(1, maxPerAddress)
        // Our own admission control decides what runs; curl's caps are a second fence.
        _ = cshim_curl_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, self.maxTotal)
        _ = cshim_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, self.maxTotal)
        let thread = Thread { [self] in run() }
        thread.name = "aasa-fetch-loop"
        thread.start()
    }

    /// Queues `request`; `completion` runs on the loop thread when it is done, so it must be quick.
    func submit(_ request: TransferRequest, completion: @escaping @Sendable (TransportFacts) -> Void) {
        lock.lock()
        let accepted = !stopping
        if accepted { submitted.append((request, completion)) }
        lock.unlock()
        if accepted {
            curl_multi_wakeup(multi)
        } else {
            completion(TransportFacts(location: request.location, url: request.url,
                                      failure: FetchFailure(kind: .other, message: "the fetcher is shutting down")))
        }
    }

    /// Counts as of the loop's last turn.
    var statistics: FetcherStatistics {
        lock.lock()
        defer { lock.unlock() }
        var snapshot = published
        snapshot.queued += submitted.count
        return snapshot
    }

    /// Lets in-flight and queued transfers finish, then stops the thread and frees curl's state.
    func shutdown() {
        lock.lock()
        stopping = true
        lock.unlock()
        curl_multi_wakeup(multi)
        finished.lock()
        while !threadDone { finished.wait() }
        finished.unlock()
        curl_multi_cleanup(multi)
        // After the multi: every easy handle is gone by now, and a share in use refuses to be freed.
        for share in sessionShares { curl_share_cleanup(share) }
    }

    private func run() {
        while true {
            lock.lock()
            let incoming = submitted
            submitted.removeAll(keepingCapacity: true)
            let stop = stopping
            lock.unlock()
            for item in incoming { enqueue(item) }
            if stop && active.isEmpty && waitingCount == 0 { break }

            admit()
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            harvest()
            if gate.heldCount > 0 { requeue(gate.overdue(at: .now)) }
            publish()
            if (!active.isEmpty || waitingCount == 0) && !released {
                var ready: Int32 = 0
                curl_multi_poll(multi, nil, 0, 1000, &ready)
            }
            released = false
        }
        finished.lock()
        threadDone = true
        finished.broadcast()
        finished.unlock()
    }

    private var completed = 0

    private func publish() {
        let snapshot = FetcherStatistics(inFlight: active.count, queued: waitingCount + gate.heldCount, completed: completed,
                                         busiestAddressInFlight: activePerAddress.values.max() ?? 0,
                                         connectionsWithCertificates: connections.count)
        lock.lock()
        published = snapshot
        lock.unlock()
    }

    private func enqueue(_ item: Item) {
        let key = item.0.addressKey
        if waiting[key] == nil {
            waiting[key] = []
            waitingOrder.append(key)
        }
        waiting[key]?.append(item)
        waitingCount += 1
    }

    private func admit() {
        guard waitingCount > 0, active.count < maxTotal else { return }
        var emptied = false
        for key in waitingOrder {
            guard active.count < maxTotal else { break }
            while activePerAddress[key, default: 0] < maxPerAddress, active.count < maxTotal,
                  let item = waiting[key]?.popFirst() {
                waitingCount -= 1
                guard gate.admit(item, origin: item.0.originKey, at: .now) else { continue }
                start(item.0, completion: item.1, key: key)
            }
            if waiting[key]?.isEmpty == true {
                waiting[key] = nil
                emptied = true
            }
        }
        if emptied { waitingOrder.removeAll { waiting[$0] == nil } }
    }

    /// Puts transfers the gate held back at the front of their address's queue, in their order.
    private func requeue(_ items: [Item]) {
        guard !items.isEmpty else { return }
        for item in items.reversed() {
            let key = item.0.addressKey
            if waiting[key] == nil { waitingOrder.append(key) }
            var queue = waiting[key] ?? []
            queue.insert(item, at: queue.startIndex)
            waiting[key] = queue
        }
        waitingCount += items.count
        released = true
    }

    /// Hands an admitted transfer to curl; one that cannot start ends at once, for the gate too.
    private func start(_ request: TransferRequest, completion: @escaping @Sendable (TransportFacts) -> Void, key: String) {
        let origin = request.originKey
        let transfer: CurlTransfer
        do {
            // Runs inside curl_multi_perform, on this thread.
            transfer = try CurlTransfer(request: request, settings: settings, connections: connections,
                                        sessions: sessionShare(for: request.host),
                                        connected: { [unowned self] in requeue(gate.connected(origin: origin)) },
                                        completion: completion)
        } catch {
            completion(TransportFacts(location: request.location, url: request.url,
                                      failure: FetchFailure(kind: .other, message: "\(error)")))
            requeue(gate.finished(origin: origin))
            return
        }
        let rc = curl_multi_add_handle(multi, transfer.handle)
        guard rc == CURLM_OK else {
            completion(TransportFacts(location: request.location, url: request.url,
                                      failure: FetchFailure(kind: .other, message: "curl_multi_add_handle failed: \(String(cString: curl_multi_strerror(rc)))")))
            requeue(gate.finished(origin: origin))
            return
        }
        active[transfer.handle] = transfer
        activePerAddress[key, default: 0] += 1
    }

    /// The share that keeps `host`'s TLS session: a stable hash of the name, so the same host always finds it.
    private func sessionShare(for host: String) -> UnsafeMutableRawPointer? {
        guard !sessionShares.isEmpty else { return nil }
        return sessionShares[Int(HostHash.fnv1a(host) % UInt64(sessionShares.count))]
    }

    private func harvest() {
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                  let transfer = active.removeValue(forKey: easy) else { continue }
            let result = message.pointee.data.result
            let facts = transfer.facts(result: result)
            curl_multi_remove_handle(multi, easy)
            let key = transfer.request.addressKey
            activePerAddress[key, default: 1] -= 1
            if activePerAddress[key] == 0 { activePerAddress[key] = nil }
            completed += 1
            transfer.completion(facts)
            requeue(gate.finished(origin: transfer.request.originKey))
        }
    }
}

/// What the transfer loop is doing, for /metrics and for tests of the connection caps.
public struct FetcherStatistics: Hashable, Sendable {
    /// Transfers handed to curl and not finished.
    public var inFlight = 0
    /// Transfers waiting for a free slot (overall or for their address).
    public var queued = 0
    public var completed = 0
    /// The most transfers in flight towards any one address.
    public var busiestAddressInFlight = 0
    /// Open connections whose certificate facts are remembered for the transfers that reuse them.
    public var connectionsWithCertificates = 0
}
