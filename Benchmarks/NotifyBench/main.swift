import Vocabulary
// Measures the outbox against a real PostgreSQL (embedded, temporary) and a local webhook receiver:
//   1. latency from the commit of an outbox row to the webhook's arrival (goal: ≤ 1 s),
//   2. deliveries per second from a filled outbox to the receiver.
//   3. the raw POST rate to the same receiver (the baseline),
//   4. latency from the check that crosses the alert threshold (real pipeline, TLS fleet) to the webhook.
// Usage: swift run -c release NotifyBench [latency-samples] [throughput-rows] [threads] [threshold-cycles]
import Fetch
import Foundation
import Monitor
import Notify
import Outbound
import Store
import TestSupport

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let samples = arguments.count > 0 ? arguments[0] : 50
let rows = arguments.count > 1 ? arguments[1] : 1000
let threads = arguments.count > 2 ? arguments[2] : 4
let cycles = arguments.count > 3 ? arguments[3] : 5

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
}

func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }

let testDatabase = try TestPostgres.createDatabase()
defer { testDatabase.drop() }
let db = Database(configuration: testDatabase.configuration, poolSize: threads + 4)
defer { db.close() }
let receiver = try TestWebhookReceiver()
_ = try ChannelSetup.add(kind: .webhook, target: receiver.url, in: db)
let configuration = DeliveryConfiguration(
    mail: nil, links: NotificationLinks(baseURL: "http://127.0.0.1:8080"),
    webhookPolicy: WebhookAddressPolicy(allowPrivateAddresses: true), threads: threads, batchSize: 16,
    pollInterval: .seconds(30))

func event(_ i: Int) -> NotificationEvent {
    NotificationEvent(kind: .alertOpened, occurredAt: Date(), domainHost: "bench\(i % 50).example", severity: .critical,
                      title: "the file is unreachable", findings: [.init(code: "http-status", severity: .error, message: "503")])
}

// 1. Latency: the worker is idle (waiting on LISTEN); each row is committed, then we wait for it.
print("NotifyBench: \(samples) latency samples, \(rows) rows for throughput, \(threads) sender threads")
let worker = DeliveryWorker(database: db, configuration: configuration, log: { print("worker: \($0)") })
worker.start()
var latencies: [Double] = []
for i in 0..<samples {
    usleep(20_000)  // let the senders go idle, as a real outbox would be between alerts
    let committed = Date()
    try db.withTransaction { tx in _ = try tx.enqueueNotification(event(i)) }
    let got = receiver.waitForRequests(i + 1, timeout: .seconds(30))
    guard got.count == i + 1, let last = got.last else { print("sample \(i) not received"); exit(1) }
    latencies.append(last.receivedAt.timeIntervalSince(committed))
}
worker.stop()
let p50 = percentile(latencies, 0.5), p95 = percentile(latencies, 0.95), worst = latencies.max() ?? .nan
print("latency commit -> webhook received: p50 \(ms(p50)), p95 \(ms(p95)), max \(ms(worst)); goal 1000 ms: p95 is \(String(format: "%.3f", p95 / 1.0))x of the goal")

// 2. Throughput: fill the outbox with the worker stopped, then time the drain.
let before = receiver.requests().count
for i in 0..<rows { try db.enqueueNotification(event(i)) }
let drainer = DeliveryWorker(database: db, configuration: configuration, log: { print("worker: \($0)") })
let started = Date()
drainer.start()
var sent = 0
while true {
    sent = try db.deliveryCounts()[.sent] ?? 0
    if sent >= samples + rows { break }
    if Date().timeIntervalSince(started) > 600 { print("throughput run did not finish in 600 s"); break }
    usleep(20_000)
}
let elapsed = Date().timeIntervalSince(started)
drainer.stop()
let received = receiver.requests().count - before
let ids = Set(receiver.requests().compactMap { $0.headers["webhook-id"] })
print(String(format: "throughput: %d deliveries in %.2f s = %.0f deliveries/s (%d received, %d distinct webhook-ids overall)",
             sent - samples, elapsed, Double(sent - samples) / elapsed, received, ids.count))

// 3. Baseline: the same POSTs straight from WebhookSender, no database, same thread count: how
// much of the outbox's cost is the receiver and the HTTP exchange itself.
try receiver.start()
let direct = WebhookSender(policy: WebhookAddressPolicy(allowPrivateAddresses: true), links: configuration.links)
let secret = WebhookSecret.generate()
let perThread = max(1, rows / threads)
let directStart = Date()
DispatchQueue.concurrentPerform(iterations: threads) { t in
    for i in 0..<perThread {
        _ = direct.send(event(i), url: receiver.url, format: .event, secret: secret, messageID: "direct-\(t)-\(i)")
    }
}
let directElapsed = Date().timeIntervalSince(directStart)
let directRate = Double(perThread * threads) / directElapsed
print(String(format: "baseline without the outbox: %d POSTs in %.2f s = %.0f/s; outbox/baseline = %.2f",
             perThread * threads, directElapsed, directRate, (Double(sent - samples) / elapsed) / directRate))
receiver.shutDown()

// 4. Threshold-crossing check -> webhook: a domain on the TLS fleet breaks; the second failing
// check opens the alert and writes the outbox in its transaction; the worker delivers it.
try await TestTLSFleet.with { fleet in
    let host = fleet.host("bench")
    let file = fleet.directory.appendingPathComponent("www/_default/.well-known/apple-app-site-association")
    func serve(_ text: String) throws {
        try Data(text.utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
    }
    let good = #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.shop"], "components": [{"/": "/*"}]}]}}"#
    try serve(good)
    let pipelineDatabase = try TestPostgres.createDatabase()
    defer { pipelineDatabase.drop() }
    let pdb = Database(configuration: pipelineDatabase.configuration, poolSize: threads + 4)
    defer { pdb.close() }
    let hookReceiver = try TestWebhookReceiver()
    _ = try ChannelSetup.add(kind: .webhook, target: hookReceiver.url, minSeverity: .critical, in: pdb)
    guard case .created(let domainID) = try pdb.createDomain(DomainDraft(
        host: host, displayName: host, wildcard: false, intervalSeconds: 3600, badgeEnabled: false,
        appIDs: [AppIDExpectation(service: .applinks, appID: "ABCDE12345.shop")], watchedURLs: []))
    else { print("domain not created"); return }
    let fetcher = try Fetcher(FetchConfiguration(
        policy: OutboundPolicy(allowPrivateAddresses: true), cdnBase: fleet.cdnBase, checkCDN: false,
        rootLocation: .whenWellKnownFails, compareUserAgents: false, extraCAFile: fleet.caFile,
        connectTo: try fleet.connectTo.map { try ConnectToRule(parsing: $0) },
        connectTimeout: .seconds(3), totalTimeout: .seconds(5)))
    defer { fetcher.shutdown() }
    let pipeline = CheckPipeline(database: pdb, fetcher: fetcher)
    let pipelineWorker = DeliveryWorker(database: pdb, configuration: configuration, log: { print("worker: \($0)") })
    pipelineWorker.start()
    defer { pipelineWorker.stop() }
    func check() async throws -> (started: Date, committed: Date) {
        _ = try pdb.requestCheck(domainID: domainID)
        let started = Date()
        let leased = try pdb.leaseDueDomains(limit: 1, lease: .seconds(60), worker: "bench")
        let expectations = Dictionary(grouping: try pdb.expectations(domainIDs: leased.map(\.id)), by: \.domainID)
        let histories = try pdb.domainHistories(domainIDs: leased.map(\.id))
        for domain in leased {
            _ = try await pipeline.run(domain, expectations: Expectations(rows: expectations[domain.id] ?? []),
                                       history: histories[domain.id])
        }
        return (started, Date())
    }
    var fromCheckStart: [Double] = []
    var fromCommit: [Double] = []
    _ = try await check()
    for cycle in 0..<cycles {
        try serve("not json \(cycle)")
        _ = try await check()
        let crossing = try await check()
        let got = hookReceiver.waitForRequests(2 * cycle + 1, timeout: .seconds(30))
        guard got.count == 2 * cycle + 1, let opened = got.last else { print("cycle \(cycle): no webhook"); return }
        fromCheckStart.append(opened.receivedAt.timeIntervalSince(crossing.started))
        fromCommit.append(opened.receivedAt.timeIntervalSince(crossing.committed))
        try serve(good)
        _ = try await check()
        _ = hookReceiver.waitForRequests(2 * cycle + 2, timeout: .seconds(30))
    }
    print("threshold-crossing check -> webhook received (\(cycles) alerts): from the check's start p50 \(ms(percentile(fromCheckStart, 0.5))), "
          + "max \(ms(fromCheckStart.max() ?? .nan)); from its commit p50 \(ms(percentile(fromCommit, 0.5))), max \(ms(fromCommit.max() ?? .nan)); "
          + "goal 1000 ms: worst is \(String(format: "%.3f", (fromCheckStart.max() ?? .nan) / 1.0))x of the goal")
}
