import Glibc

/// An exclusive advisory lock on a file (flock), held while one process decides whether to start or
/// stop the embedded cluster, so two processes starting at once do not both run pg_ctl start.
/// The kernel drops the lock if the process dies.
final class DirectoryLock {
    private let descriptor: Int32

    init(path: String) throws {
        descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw EmbeddedPostgresError.commandFailed(command: "open \(path)", status: errno, output: String(cString: strerror(errno)))
        }
        while flock(descriptor, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            let code = errno
            close(descriptor)
            throw EmbeddedPostgresError.commandFailed(command: "flock \(path)", status: code, output: String(cString: strerror(code)))
        }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
