import Foundation
import Glibc

/// Which processes use the embedded cluster: one file per user in `<data>/clients/`, named by pid
/// and holding the process start time (so a reused pid is not mistaken for a live user). The last
/// user to leave stops the cluster; a `status` command run next to `serve` therefore never stops
/// the server's database, and a `serve` started after it does not lose it either.
struct ClusterClients {
    let directory: String

    /// Records this process (`token` tells apart several users inside one process).
    func register(token: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let pid = getpid()
        let file = "\(directory)/\(pid)-\(token)"
        guard FileManager.default.createFile(atPath: file, contents: Data((Self.startTime(of: pid) ?? "").utf8)) else {
            throw EmbeddedPostgresError.commandFailed(command: "create \(file)", status: -1, output: "cannot write the client registry")
        }
    }

    func unregister(token: String) {
        try? FileManager.default.removeItem(atPath: "\(directory)/\(getpid())-\(token)")
    }

    /// Live users, after removing the entries of processes that are gone.
    func live() -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var alive: [String] = []
        for entry in entries {
            let path = "\(directory)/\(entry)"
            guard let pidText = entry.split(separator: "-").first, let pid = Int32(pidText) else {
                try? FileManager.default.removeItem(atPath: path)
                continue
            }
            let recorded = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            let exists = kill(pid, 0) == 0 || errno == EPERM
            if exists && (recorded.isEmpty || Self.startTime(of: pid) == recorded) {
                alive.append(entry)
            } else {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
        return alive
    }

    /// Field 22 of /proc/<pid>/stat: the start time in clock ticks since boot.
    private static func startTime(of pid: Int32) -> String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let closing = stat.lastIndex(of: ")") else { return nil }
        // The command name (field 2) may contain spaces; count fields after its closing parenthesis.
        let fields = stat[stat.index(after: closing)...].split(separator: " ")
        return fields.count > 19 ? String(fields[19]) : nil
    }
}
