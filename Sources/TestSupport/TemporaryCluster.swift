import Foundation
import Glibc

/// Temporary directories for test clusters, and clean-up after test runs that were killed before
/// they could stop their cluster (each directory records the pid of the process that made it).
public enum TemporaryCluster {
    /// A new directory under the system temp dir, searchable by PostgreSQL's account when we are root.
    public static func makeDirectory(prefix: String) throws -> String {
        let base = FileManager.default.temporaryDirectory.standardizedFileURL.path
        let path = "\(base)/\(prefix)-\(getpid())-\(String(UInt32.random(in: 0...UInt32.max), radix: 36))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        try Data(String(getpid()).utf8).write(to: URL(fileURLWithPath: path + "/owner.pid"))
        return path
    }

    /// Stops the servers and removes the directories of earlier test runs whose process is gone.
    public static func reapOrphans() {
        let base = FileManager.default.temporaryDirectory.standardizedFileURL.path
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
        for entry in entries where entry.hasPrefix("aasa-test-") {
            let directory = base + "/" + entry
            guard let ownerText = try? String(contentsOfFile: directory + "/owner.pid", encoding: .utf8),
                  let owner = Int32(ownerText), kill(owner, 0) != 0, errno == ESRCH else { continue }
            if let pidText = try? String(contentsOfFile: directory + "/postgresql/postmaster.pid", encoding: .utf8),
               let line = pidText.split(separator: "\n").first, let postmaster = Int32(line),
               let command = try? String(contentsOfFile: "/proc/\(postmaster)/comm", encoding: .utf8),
               command.hasPrefix("postgres") {
                // SIGQUIT: immediate shutdown; the data is thrown away anyway.
                kill(postmaster, SIGQUIT)
            }
            try? FileManager.default.removeItem(atPath: directory)
        }
    }
}
