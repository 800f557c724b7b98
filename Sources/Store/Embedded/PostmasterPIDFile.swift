import Foundation
import Glibc

/// Reads a cluster's postmaster.pid to tell a running server from the leftovers of a crash. After a
/// `kill -9` or a power cut the file stays behind; if its pid is gone, or now belongs to some other
/// program (pids are reused, especially in containers), the file is stale and may be removed.
enum PostmasterPIDFile {
    enum State: Equatable {
        case absent
        case running(pid: Int32)
        case stale(pid: Int32?)
    }

    static func path(in clusterDirectory: String) -> String { clusterDirectory + "/postmaster.pid" }

    static func inspect(clusterDirectory: String) -> State {
        let file = path(in: clusterDirectory)
        guard FileManager.default.fileExists(atPath: file) else { return .absent }
        guard let contents = try? String(contentsOfFile: file, encoding: .utf8),
              let firstLine = contents.split(separator: "\n").first,
              let pid = Int32(firstLine.trimmingCharacters(in: .whitespaces)), pid > 0 else {
            return .stale(pid: nil)
        }
        return isPostgresProcess(pid) ? .running(pid: pid) : .stale(pid: pid)
    }

    /// True when `pid` exists and is a PostgreSQL server process. A killed postmaster whose parent
    /// (often pid 1 in a container) has not reaped it yet is a zombie: dead, though kill(0) succeeds.
    static func isPostgresProcess(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
           let closing = stat.lastIndex(of: ")"), stat[stat.index(after: closing)...].hasPrefix(" Z") {
            return false
        }
        guard let name = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8) else {
            return true  // no /proc: trust that the pid is alive
        }
        let command = name.trimmingCharacters(in: .whitespacesAndNewlines)
        return command == "postgres" || command == "postmaster"
    }
}
