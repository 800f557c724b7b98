import Foundation
import Glibc
import Store
import Testing
import TestSupport

/// `--log-format json`: every line a worker writes to standard error is one JSON object with time,
/// level, event and message; a check that changed something names its domain and check id.
@Suite(.serialized) struct LogFormatTests {
    @Test func workerLogsOneJSONObjectPerLineWithDomainAndCheckID() throws {
        let hosts = ["log1.fleet.test", "log2.fleet.test"]
        try CrawlTestbed.with(workerProcesses: 1, hosts: hosts) { testbed in
            let (fleet, database, databaseURL) = (testbed.fleet, testbed.database, testbed.testDatabase.url)

            let worker = try WorkerProcess(databaseURL: databaseURL, fleet: fleet, name: "logger", leaseSeconds: 60,
                                           extraArguments: ["--log-format", "json"])
            let deadline = ContinuousClock.now + .seconds(120)
            func checked() throws -> Int { try database.value("SELECT count(*)::int FROM checks") }
            while try checked() < hosts.count, ContinuousClock.now < deadline { usleep(100_000) }
            worker.stop()
            #expect(try checked() == hosts.count, "\(worker.log.suffix(3000))")

            let lines = worker.log.split(separator: "\n")
            #expect(lines.count >= hosts.count + 1, "\(worker.log)")
            var events: [[String: Any]] = []
            for line in lines {
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                guard let object else { Issue.record("not a JSON object: \(line)"); continue }
                for key in ["time", "level", "event", "message"] { #expect(object[key] is String, "\(key) in \(line)") }
                let time = object["time"] as? String ?? ""
                #expect(time.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil, "\(time)")
                #expect(["debug", "info", "warning", "error"].contains(object["level"] as? String ?? ""), "\(line)")
                events.append(object)
            }
            // The module's own text lines come through as objects too, with their prefix as the event.
            #expect(events.contains { ($0["message"] as? String)?.hasPrefix("worker crawling") == true })
            for host in hosts {
                let id: Int = try database.value("SELECT c.id::int FROM checks c JOIN domains d ON d.id = c.domain_id WHERE d.host = $1", host)
                let event = events.first { $0["event"] as? String == "check.changed" && $0["domain"] as? String == host }
                #expect(event?["check_id"] as? Int == id, "\(host): \(worker.log)")
                #expect(["pass", "warn", "fail"].contains(event?["verdict"] as? String ?? ""))
            }
        }
    }

    /// A format that does not exist is refused before anything starts.
    @Test func anUnknownFormatIsRefused() throws {
        let wrapped = try BuiltCommand.run(["serve", "--log-format", "yaml"])
        #expect(wrapped.status != 0 && wrapped.stderr.contains("log-format"), "\(wrapped.stderr)")
    }
}
