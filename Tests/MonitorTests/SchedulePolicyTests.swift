import Foundation
import Testing
@testable import Monitor

@Suite struct SchedulePolicyTests {
    let policy = SchedulePolicy()

    @Test(arguments: [
        (nil as Int?, 3600),   // default one hour
        (300, 300),
        (60, 60),              // the minimum itself
        (10, 60),              // below the minimum is raised
        (0, 60),
        (86_400, 86_400),
    ])
    func effectiveInterval(requested: Int?, expected: Int) {
        #expect(policy.effectiveInterval(requested.map { .seconds($0) }) == .seconds(expected))
    }

    @Test(arguments: [
        (0, 3600),             // reachable: the interval
        (1, 3600),             // first failure: the interval, so the confirming check is not delayed
        (2, 7200),
        (3, 14_400),
        (4, 21_600),           // capped at six hours
        (50, 21_600),
        (10_000, 21_600),      // no overflow for absurd streaks
    ])
    func backoffDoublesUpToTheCap(unreachable: Int, expectedSeconds: Int) {
        #expect(policy.delay(interval: .seconds(3600), consecutiveUnreachable: unreachable) == .seconds(expectedSeconds))
    }

    @Test func capNeverShortensALongInterval() {
        // A domain checked daily is not checked more often because the cap is six hours.
        #expect(policy.delay(interval: .seconds(86_400), consecutiveUnreachable: 5) == .seconds(86_400))
    }

    @Test func jitterStaysWithinTheFraction() {
        let delay = Duration.seconds(3600)
        for domain in UInt64(0)..<2000 {
            let jitter = policy.jitter(for: delay, domainKey: domain, round: 7)
            #expect(abs(SchedulePolicy.seconds(jitter)) <= 360.001)
        }
    }

    @Test func jitterSpreadsManyDomainsAcrossTheWindow() {
        // 10,000 domains registered at once: in 36 buckets of 20 s across ±6 min, none may hold a
        // crowd. Uniform gives ~278 per bucket; a broken mix (all equal) puts 10,000 in one.
        var buckets = [Int](repeating: 0, count: 36)
        for domain in UInt64(1)...10_000 {
            let seconds = SchedulePolicy.seconds(policy.jitter(for: .seconds(3600), domainKey: domain, round: 1))
            let index = min(Int((seconds + 360) / 20), 35)
            buckets[index] += 1
        }
        #expect(buckets.allSatisfy { $0 > 150 && $0 < 420 }, "\(buckets)")
    }

    @Test func jitterIsDeterministicButChangesPerRound() {
        let a = policy.jitter(for: .seconds(3600), domainKey: 42, round: 1)
        #expect(a == policy.jitter(for: .seconds(3600), domainKey: 42, round: 1))
        let rounds = Set((UInt64(0)..<20).map { policy.jitter(for: .seconds(3600), domainKey: 42, round: $0) })
        #expect(rounds.count > 15)
    }

    @Test func noJitterWhenDisabled() {
        let still = SchedulePolicy(jitterFraction: 0)
        let finished = Date(timeIntervalSince1970: 1_000_000)
        #expect(still.nextCheck(after: finished, interval: .seconds(600), consecutiveUnreachable: 0,
                                domainKey: 9, round: 3) == finished.addingTimeInterval(600))
    }

    @Test func nextCheckIsDelayPlusJitter() {
        let finished = Date(timeIntervalSince1970: 1_000_000)
        let next = policy.nextCheck(after: finished, interval: .seconds(3600), consecutiveUnreachable: 3,
                                    domainKey: 5, round: 2)
        let offset = next.timeIntervalSince(finished)
        // Backoff 4 h, ± 10 %.
        #expect(offset >= 14_400 * 0.9 && offset <= 14_400 * 1.1)
        let jitter = SchedulePolicy.seconds(policy.jitter(for: .seconds(14_400), domainKey: 5, round: 2))
        #expect(abs(offset - (14_400 + jitter)) < 0.001)
    }
}

/// 10,000 domains registered at once must not stay bunched: an import's first checks, and the
/// second checks of domains whose first check was requested, fall on each host's own slot.
@Suite struct FirstRoundSpreadTests {
    let policy = SchedulePolicy()
    let hosts = (0..<10_000).map { "shop\($0).platform.example" }

    /// Buckets of `seconds` across [0, width): ten of them, each near 1,000 for 10,000 hosts.
    func tenths(_ seconds: [Double], width: Double) -> [Int] {
        var buckets = [Int](repeating: 0, count: 10)
        for s in seconds { buckets[min(max(Int(s / width * 10), 0), 9)] += 1 }
        return buckets
    }

    @Test func slotsSpreadHostsOverTheWholeInterval() {
        let now = Date(timeIntervalSince1970: 1_800_000_123)
        let waits = hosts.map { policy.slot(for: $0, interval: .seconds(3600), notBefore: now).timeIntervalSince(now) }
        #expect(waits.allSatisfy { $0 >= 0 && $0 < 3600 })
        // Uniform gives ~1,000 per tenth of the hour; without the spread all 10,000 are in the first.
        let buckets = tenths(waits, width: 3600)
        #expect(buckets.allSatisfy { $0 > 850 && $0 < 1150 }, "\(buckets)")
        // Deterministic per host: the same host keeps its place, a minute later too.
        let again = policy.slot(for: hosts[7], interval: .seconds(3600), notBefore: now.addingTimeInterval(60))
        let first = policy.slot(for: hosts[7], interval: .seconds(3600), notBefore: now)
        #expect(again == first || again == first.addingTimeInterval(3600))
    }

    @Test func aRequestedFirstCheckPutsTheSecondOnTheHostsSlot() {
        // Every first check finished in the same second (a mass registration, each requested).
        let finished = Date(timeIntervalSince1970: 1_800_000_000)
        let gaps = hosts.enumerated().map { index, host in
            policy.nextCheck(after: finished, interval: .seconds(3600), consecutiveUnreachable: 0, domainKey: UInt64(index),
                             round: 0, spreading: host).timeIntervalSince(finished)
        }
        // Never sooner than 0.9 interval (what the jitter allows), spread over one whole interval after it.
        #expect(gaps.allSatisfy { $0 >= 3240 && $0 < 3240 + 3600 }, "\(gaps.min() ?? 0) … \(gaps.max() ?? 0)")
        let buckets = tenths(gaps.map { $0 - 3240 }, width: 3600)
        #expect(buckets.allSatisfy { $0 > 850 && $0 < 1150 }, "\(buckets)")
        // Without the spread (a routine round) they stay within ±10 % of one interval.
        let routine = hosts.indices.map { index in
            policy.nextCheck(after: finished, interval: .seconds(3600), consecutiveUnreachable: 0, domainKey: UInt64(index),
                             round: 0).timeIntervalSince(finished)
        }
        #expect(routine.allSatisfy { $0 >= 3240 && $0 <= 3960 })
    }

    @Test func backoffIsNotReplacedBySpreading() {
        let finished = Date(timeIntervalSince1970: 1_800_000_000)
        let next = policy.nextCheck(after: finished, interval: .seconds(3600), consecutiveUnreachable: 3, domainKey: 1, round: 0,
                                    spreading: "down.example")
        #expect(next.timeIntervalSince(finished) >= 14_400 * 0.9)
    }
}

@Suite struct RollUpCutoffTests {
    @Test func rollUpsTakeWholeUTCDays() {
        // 2027-01-15 06:30 UTC, a week's retention: everything before 2027-01-08 00:00 UTC.
        let now = Date(timeIntervalSince1970: 1_799_994_600)
        let cutoff = DomainScheduler.rollUpCutoff(now: now, age: .seconds(7 * 86_400))
        #expect(cutoff == Date(timeIntervalSince1970: 1_799_366_400))
        // Any time of that day gives the same cutoff, so a day's roll-up row is written once.
        #expect(DomainScheduler.rollUpCutoff(now: now.addingTimeInterval(17 * 3600), age: .seconds(7 * 86_400)) == cutoff)
        #expect(DomainScheduler.rollUpCutoff(now: now.addingTimeInterval(18 * 3600), age: .seconds(7 * 86_400)) > cutoff)
    }
}

@Suite struct ClaimPacingTests {
    let pacing = ClaimPacing(maxInFlight: 128, batchSize: 64)

    /// Flat out (the last claim was full), one finished check no longer buys a claim of one domain:
    /// the loop waits until a quarter of its slots are free. Nothing waiting: any room is claimed.
    @Test(arguments: [
        (128, true, ClaimPacing.Decision.wait),     // no room at all
        (127, true, .wait),                         // one slot free while domains wait: wait for more
        (97, true, .wait),
        (96, true, .claim(32)),                     // a quarter free: claim them together
        (0, true, .claim(64)),                      // never more than a batch
        (127, false, .claim(1)),                    // nothing was waiting: what is due now goes at once
        (128, false, .wait),
    ])
    func claimsWaitForAQuarterOfTheSlotsWhileDomainsWait(inFlight: Int, lastClaimFull: Bool, expected: ClaimPacing.Decision) {
        #expect(pacing.decide(inFlight: inFlight, lastClaimFull: lastClaimFull) == expected)
    }

    @Test func smallWorkersStillClaimOneAtATime() {
        let one = ClaimPacing(maxInFlight: 1, batchSize: 1)
        #expect(one.decide(inFlight: 0, lastClaimFull: true) == .claim(1))
        let three = ClaimPacing(maxInFlight: 3, batchSize: 3)
        #expect(three.decide(inFlight: 2, lastClaimFull: true) == .claim(1))
        // The threshold never exceeds the batch: 64 slots free of 1,000 is a full batch's worth.
        let wide = ClaimPacing(maxInFlight: 1_000, batchSize: 64)
        #expect(wide.decide(inFlight: 936, lastClaimFull: true) == .claim(64))
        #expect(wide.decide(inFlight: 937, lastClaimFull: true) == .wait)
    }
}
