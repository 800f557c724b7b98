import Foundation
import Glibc
import Store
import Testing
import TestSupport

/// `aasa-monitor worker` stops on its first SIGTERM wherever in its life the signal lands, and whichever
/// of its threads takes it (issue #17: a worker sometimes waited in Worker.run for good and needed a
/// second SIGTERM; under systemd or docker it would have been killed instead of finishing its checks).
@Suite(.serialized) struct WorkerSignalTests {
    /// The threads of `pid` that do not block SIGTERM: those the kernel may hand a process-wide SIGTERM to.
    static func threadsTakingSIGTERM(_ pid: pid_t) -> [pid_t] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { entry -> pid_t? in
            guard let tid = pid_t(entry), let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(entry)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") }),
                  let mask = UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16) else { return nil }
            return mask & (1 << UInt64(SIGTERM - 1)) == 0 ? tid : nil
        }.sorted()
    }

    /// SIGTERM to one thread of `pid` (tgkill): what the kernel does when it picks that thread for a
    /// process-wide signal, made deterministic. glibc has tgkill since 2.30; Swift's Glibc does not import it.
    static func sigtermToThread(_ pid: pid_t, _ tid: pid_t) throws {
        typealias ThreadKill = @convention(c) (pid_t, pid_t, Int32) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "tgkill") else { throw BuiltCommand.Failure(description: "no tgkill in this libc") }
        guard unsafeBitCast(symbol, to: ThreadKill.self)(pid, tid, SIGTERM) == 0 else {
            throw BuiltCommand.Failure(description: "tgkill(\(pid), \(tid)): errno \(errno)")
        }
    }

    /// Synchronous: it blocks on processes and libpq, which must not hold the cooperative pool.
    @Test func theFirstSIGTERMStopsAWorkerAtAnyPointOfItsLife() throws {
        // Enough due domains that the crawler's threads are busy (fetches, claims, writes) when the signal
        // comes: a busy thread is where a signal went missing.
        try CrawlTestbed.with(workerProcesses: 1, hosts: (0..<300).map { "s\($0).fleet.test" }) { testbed in
            let (fleet, database, databaseURL) = (testbed.fleet, testbed.database, testbed.testDatabase.url)

            var stuck: [String] = [], unclean: [String] = []
            for attempt in 0..<24 {
                try database.execute("UPDATE domains SET next_check_at = now(), lease_until = NULL, leased_by = NULL")
                let worker = try WorkerProcess(databaseURL: databaseURL, fleet: fleet, name: "signal\(attempt)", leaseSeconds: 30)
                let pid = worker.process.processIdentifier
                // Even attempts: a process-wide SIGTERM during start-up, at a spread of moments (before the
                // handler exists the default action ends the process, which is a stop too). Odd ones: once it
                // crawls, a little later each time, to each thread in turn that could take a process-wide one:
                // the kernel picks any of them, and the signal must not be lost whichever it is.
                var target = "the process"
                var crawling = false
                if attempt.isMultiple(of: 2) {
                    usleep(UInt32(attempt) * 40_000)
                    crawling = worker.log.contains("worker crawling")
                    kill(pid, SIGTERM)
                } else {
                    let deadline = ContinuousClock.now + .seconds(60)
                    while !worker.log.contains("worker crawling"), worker.process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
                    usleep(UInt32(attempt) * 25_000)
                    let threads = Self.threadsTakingSIGTERM(pid)
                    crawling = worker.log.contains("worker crawling")
                    if threads.isEmpty {
                        kill(pid, SIGTERM)
                    } else {
                        let tid = threads[(attempt / 2) % threads.count]
                        target = "thread \(tid) of \(threads.count) (\(tid == pid ? "the main thread" : "another"))"
                        try Self.sigtermToThread(pid, tid)
                    }
                }
                // "Stopped at all", not how fast: generous for a loaded machine (the checks in flight finish first).
                let deadline = ContinuousClock.now + .seconds(60)
                while worker.process.isRunning, ContinuousClock.now < deadline { usleep(20_000) }
                if worker.process.isRunning {
                    stuck.append("attempt \(attempt) (\(crawling ? "crawling" : "starting"), SIGTERM to \(target)): \(worker.log.suffix(300))")
                    worker.kill9()
                    continue
                }
                // Once it said it crawls, the signal is its own: it finishes its checks and exits with 0.
                if crawling, worker.process.terminationReason != .exit || worker.process.terminationStatus != 0 {
                    unclean.append("attempt \(attempt): reason \(worker.process.terminationReason.rawValue), status \(worker.process.terminationStatus)")
                }
            }
            #expect(stuck.isEmpty, "still running 60 s after the first SIGTERM: \(stuck)")
            #expect(unclean.isEmpty, "a crawling worker did not exit cleanly: \(unclean)")
        }
    }
}
