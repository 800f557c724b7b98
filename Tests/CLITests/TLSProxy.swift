import Foundation
import Glibc
import TestSupport

/// nginx terminating TLS on 127.0.0.1 for `localhost`, with a certificate from a throwaway test CA,
/// in front of a plain-HTTP port: `serve` as an operator puts it behind a proxy, so `--server
/// https://…` is tested against a real TLS server and a real certificate chain.
final class TLSProxy {
    let directory: URL
    let authority: TestCertificateAuthority
    let port: Int
    private let nginx: Process

    init(to upstreamPort: Int) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-tls-proxy-\(UUID().uuidString)")
        // nginx's workers run as nobody when the tests run as root: they must reach the temp folders.
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("temp"), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o777])
        authority = try TestCertificateAuthority(directory: directory)
        let certificate = try authority.issue("localhost", names: ["localhost"])
        var started: (Process, Int)?
        for _ in 0..<5 where started == nil {
            let port = try Self.freePort()
            let config = directory.appendingPathComponent("nginx.conf")
            let temp = directory.appendingPathComponent("temp").path
            try Data("""
                daemon off;
                \(getuid() == 0 ? "user nobody nogroup;" : "")
                pid \(directory.appendingPathComponent("nginx.pid").path);
                error_log \(directory.appendingPathComponent("error.log").path) warn;
                events { worker_connections 64; }
                http {
                    access_log off;
                    client_body_temp_path \(temp)/body; proxy_temp_path \(temp)/proxy; fastcgi_temp_path \(temp)/fastcgi;
                    uwsgi_temp_path \(temp)/uwsgi; scgi_temp_path \(temp)/scgi;
                    client_max_body_size 2m;
                    server {
                        listen 127.0.0.1:\(port) ssl;
                        server_name localhost;
                        ssl_certificate \(certificate.certificateFile); ssl_certificate_key \(certificate.keyFile);
                        location / { proxy_pass http://127.0.0.1:\(upstreamPort); }
                    }
                }
                """.utf8).write(to: config)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            // A watchdog stops nginx when this process goes away without stopping it (a crashed run).
            process.arguments = ["-c", """
                "$0" "$@" & n=$!
                trap 'kill $n 2>/dev/null; wait $n; exit 0' TERM INT
                while kill -0 $PPID 2>/dev/null && kill -0 $n 2>/dev/null; do sleep 0.2; done
                kill $n 2>/dev/null; wait $n
                """, "/usr/sbin/nginx", "-p", directory.path, "-c", config.path, "-e", directory.appendingPathComponent("error.log").path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline, process.isRunning, !Self.accepts(port) { usleep(20_000) }
            if process.isRunning, Self.accepts(port) {
                started = (process, port)
            } else if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
        }
        guard let (process, port) = started else {
            let log = (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
            throw ServeProcess.Failure(description: "nginx did not start: \(log)")
        }
        (nginx, self.port) = (process, port)
    }

    deinit {
        if nginx.isRunning {
            nginx.terminate()
            nginx.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// A port the kernel just gave out and took back; nginx binds it next (tried again if taken meanwhile).
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServeProcess.Failure(description: "socket: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw ServeProcess.Failure(description: "bind: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
