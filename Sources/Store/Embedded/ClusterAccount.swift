import Foundation
import Glibc

/// The operating-system account that owns and runs the embedded cluster. PostgreSQL refuses to run
/// as root, so when we are root the cluster runs as an unprivileged account through `runuser`:
/// the owner of an existing cluster, else `postgres` (from Debian's postgresql package), else a
/// system account `aasa-monitor` created for it. Otherwise it runs as the current user.
struct ClusterAccount {
    /// nil when the cluster runs as the current (non-root) user and no runuser is needed.
    let runAs: String?
    let uid: uid_t
    let gid: gid_t

    var displayName: String { runAs ?? (Self.name(of: uid) ?? "uid \(uid)") }

    static let dedicatedAccountName = "aasa-monitor"

    static func resolve(clusterDirectory: String, log: (String) -> Void) throws -> ClusterAccount {
        let existingOwner = owner(of: clusterDirectory)
        let euid = geteuid()
        guard euid == 0 else {
            if let existingOwner, existingOwner != euid {
                throw EmbeddedPostgresError.ownedByAnotherUser(path: clusterDirectory, owner: name(of: existingOwner) ?? "uid \(existingOwner)")
            }
            return ClusterAccount(runAs: nil, uid: euid, gid: getegid())
        }
        if let existingOwner, existingOwner != 0, let name = name(of: existingOwner), let account = lookUp(name) {
            return account
        }
        if let account = lookUp("postgres") ?? lookUp(dedicatedAccountName) {
            return account
        }
        log("creating the system account \(dedicatedAccountName) to run the embedded PostgreSQL (it refuses to run as root)")
        let useradd = ["/usr/sbin/useradd", "/sbin/useradd"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "useradd"
        let outcome = try ExternalCommand(useradd, ["--system", "--user-group", "--no-create-home", "--home-dir", "/nonexistent",
                                                    "--shell", "/usr/sbin/nologin", dedicatedAccountName]).run()
        guard let account = lookUp(dedicatedAccountName) else {
            throw EmbeddedPostgresError.accountUnavailable(message: "useradd \(dedicatedAccountName) failed: \(outcome.output)")
        }
        return account
    }

    /// Gives `path` to the account (when we run as root on its behalf).
    func own(_ path: String) throws {
        guard runAs != nil else { return }
        if chown(path, uid, gid) != 0 {
            throw EmbeddedPostgresError.accountUnavailable(message: "chown \(path) to \(displayName): \(String(cString: strerror(errno)))")
        }
    }

    /// Makes sure the account can reach `directory`: each ancestor needs search (x) permission for it.
    /// /root is typically 0700; where an ancestor is closed, add o+x (search only, not listing) and
    /// say so, which is the smallest change that lets PostgreSQL's account reach its files.
    func ensureCanTraverse(_ directory: String, log: (String) -> Void) throws {
        guard runAs != nil else { return }
        var path = ""
        for component in directory.split(separator: "/") {
            path += "/" + component
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            let mode = info.st_mode
            let canSearch: Bool
            if info.st_uid == uid {
                canSearch = mode & S_IXUSR != 0
            } else if info.st_gid == gid {
                canSearch = mode & S_IXGRP != 0
            } else {
                canSearch = mode & S_IXOTH != 0
            }
            if !canSearch {
                guard chmod(path, (mode & 0o7777) | S_IXOTH) == 0 else {
                    throw EmbeddedPostgresError.accountUnavailable(
                        message: "\(path) is not searchable by \(displayName) and chmod o+x failed: \(String(cString: strerror(errno)))")
                }
                log("made \(path) searchable by others (chmod o+x, was \(String(mode & 0o777, radix: 8))) so PostgreSQL's account \(displayName) can reach the data directory")
            }
        }
    }

    private static func owner(of path: String) -> uid_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_uid : nil
    }

    private static func lookUp(_ name: String) -> ClusterAccount? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return ClusterAccount(runAs: name, uid: entry.pw_uid, gid: entry.pw_gid)
    }

    static func name(of uid: uid_t) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name else { return nil }
        return String(cString: name)
    }
}
