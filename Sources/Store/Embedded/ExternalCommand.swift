import Foundation
import Glibc

/// Runs a program to completion and captures what it printed.
///
/// Spawned with posix_spawn rather than Foundation's `Process`: `pg_ctl start` leaves a server
/// running, and that server would inherit every descriptor the child had — Process's own exit
/// notification socket (so it never sees the child exit), any pipe we read output from, and even
/// the HTTP server's listening socket. Here the child gets stdin from /dev/null, stdout and stderr
/// into a temporary file, and every other descriptor closed; it also gets its own process group, so
/// a Ctrl-C at the terminal reaches aasa-monitor (which then shuts down in order), not PostgreSQL.
struct ExternalCommand {
    struct Outcome {
        var status: Int32
        var output: String
        var succeeded: Bool { status == 0 }
    }

    var executable: String
    var arguments: [String]
    var workingDirectory: String?

    init(_ executable: String, _ arguments: [String], workingDirectory: String? = nil) {
        self.executable = executable
        self.arguments = arguments
        self.workingDirectory = workingDirectory
    }

    /// The same command run as `account` through runuser (we are root; PostgreSQL refuses root).
    func running(as account: String?) -> ExternalCommand {
        guard let account else { return self }
        return ExternalCommand(ExternalCommand.runuserPath, ["-u", account, "--", executable] + arguments,
                               workingDirectory: workingDirectory)
    }

    var commandLine: String { ([executable] + arguments).joined(separator: " ") }

    func run() throws -> Outcome {
        let outputPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("aasa-monitor-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).out").path
        let output = open(outputPath, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw failure("cannot create \(outputPath): \(String(cString: strerror(errno)))") }
        defer {
            close(output)
            unlink(outputPath)
        }
        let pid = try spawn(output: output)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw failure("waitpid: \(String(cString: strerror(errno)))") }
        }
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // status: exit code in bits 8–15 when the low 7 bits are 0; otherwise the killing signal.
        let exitCode = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Outcome(status: exitCode, output: text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Runs and throws `commandFailed` with the output when the exit status is not 0.
    @discardableResult
    func runChecked() throws -> Outcome {
        let outcome = try run()
        guard outcome.succeeded else {
            throw EmbeddedPostgresError.commandFailed(command: commandLine, status: outcome.status, output: outcome.output)
        }
        return outcome
    }

    private func spawn(output: Int32) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, output, 2)
        try Self.closeFrom(&actions, 3)
        if let workingDirectory { try Self.changeDirectory(&actions, workingDirectory) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard result == 0 else { throw failure("cannot start: \(String(cString: strerror(result)))") }
        return pid
    }

    private func failure(_ message: String) -> EmbeddedPostgresError {
        .commandFailed(command: commandLine, status: -1, output: message)
    }

    // glibc's posix_spawn_file_actions_addclosefrom_np (2.34) and _addchdir_np (2.29) are GNU
    // extensions the Glibc module does not import; they are looked up once by name.
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    private static func closeFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ lowest: Int32) throws {
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(actions, lowest)
            return
        }
        // Older glibc: close what is open now (a descriptor opened meanwhile by another thread leaks).
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap(Int32.init) where fd >= lowest && fcntl(fd, F_GETFD) >= 0 {
            posix_spawn_file_actions_addclose(actions, fd)
        }
    }

    private static func changeDirectory(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: String) throws {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np") else {
            throw EmbeddedPostgresError.commandFailed(command: "posix_spawn", status: -1, output: "this C library cannot set a child's directory")
        }
        _ = unsafeBitCast(symbol, to: ChangeDirectory.self)(actions, path)
    }

    static var runuserPath: String {
        for candidate in ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser", "/bin/runuser"]
        where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        return "runuser"
    }
}
