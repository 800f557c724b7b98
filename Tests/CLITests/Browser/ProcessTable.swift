import Foundation
import Glibc

/// Reads /proc to find processes by one exact command-line argument (e.g. a private profile
/// directory), so a test can end exactly the processes it caused and nothing else.
enum ProcessTable {
    static func processes(withArgumentContaining needle: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), pid != getpid(),
                  let raw = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return nil }
            // Arguments are NUL-separated.
            let arguments = raw.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return arguments.contains(where: { $0.contains(needle) }) ? pid : nil
        }
    }
}
