// The fault campaign (issue #30): the real product — release `serve` and two `worker`s on one PostgreSQL
// over the loopback TLS fleet — for a while under every fault at once, on a schedule (Schedule.swift):
// kill -9 of a worker, PostgreSQL's fast and immediate shutdowns, a webhook receiver down for ten
// minutes and one answering slowly, sites whose file breaks and recovers, a burst of hostile files.
// It prints what was lost: late checks, alerts against the plan, webhook deliveries per key, the
// outbox's drain time, RSS, standard error by kind. Benchmarks/fault-bench.sh runs it.
//
//   FaultBench [--minutes 30] [--domains 10000] [--interval-seconds S] [--settle-minutes M]
//              [--lease-seconds L] [--max-in-flight 64] [--keep-data DIR]
import Foundation

let campaign = try Campaign(CampaignOptions(CommandLine.arguments))
do {
    try campaign.run()
} catch {
    print("fault-bench: \(error)")
    campaign.stopAll()
    exit(1)
}
