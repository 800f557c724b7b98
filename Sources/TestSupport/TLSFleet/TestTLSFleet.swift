import Foundation
import Glibc

/// Real HTTPS servers on loopback for the fetcher's tests: nginx (Debian's) with one server block
/// per scenario host under `fleet.test`, certificates from a test CA made with openssl, a fake
/// Apple CDN at `cdn.fleet.test`, and `MisbehavingServer`s for hang/reset/drip.
///
/// Names reach the loopback ports through `connectTo` (curl's `--connect-to` rules): point the
/// fetcher at them together with `caFile` and the private-address opt-in. Every unknown name
/// under the domain is answered by a default server with the good file (the crawl benchmark).
public final class TestTLSFleet: @unchecked Sendable {
    public static let domain = "fleet.test"
    public let directory: URL
    public let authority: TestCertificateAuthority
    /// nginx's TLS port on 127.0.0.1.
    public let port: Int
    /// The test CA (PEM): trust it in addition to the system roots.
    public var caFile: String { authority.certificateFile }
    /// `HOST:PORT:CONNECT_HOST:CONNECT_PORT` rules, specific ones first, then the catch-all.
    public let connectTo: [String]
    public let cdnBase = "https://cdn.fleet.test/a/v1"
    /// The fake Digital Asset Links API behind nginx (`--google-dal-base`).
    public let googleDALBase = "https://dal.fleet.test/v1"
    /// The fake API itself: what it answers per host, and the requests it got.
    public let googleAPI: FakeDigitalAssetLinksAPI
    /// Every scenario label of the AASA (`good`, `redirect301`, …).
    public let scenarios: [String]
    /// Every assetlinks.json scenario label (`al-good`, `al-redirect`, …).
    public let androidScenarios: [String]
    /// Every web passkeys scenario label (`wa-good`, `wa-plain`, …): RP IDs for `checkPasskeys`.
    public let webScenarios: [String]

    private let nginx: Process
    private let misbehaving: [MisbehavingServer]
    /// The server behind `hang.fleet.test`: accepts and never answers.
    public var hangServer: MisbehavingServer { misbehaving[0] }
    private let lock = NSLock()
    private var stopped = false

    public func host(_ label: String) -> String { "\(label).\(Self.domain)" }

    /// What the default server (every name under the domain that no scenario claims) does beyond
    /// serving `_default`'s files: a benchmark's many hosts, some of which must break on a schedule.
    public struct DefaultServerOptions: Sendable {
        /// A name's own folder (`hostFile(_:host:at:)`) is served before `_default`'s file at the same path.
        public var perHostFiles: Bool
        /// Names matching `hosts` (an nginx regular expression) get their AASA from a plain-HTTP
        /// upstream on this loopback `port` (a slow-drip server of the caller's); their other files are `_default`'s.
        public var proxiedAASA: (hosts: String, port: Int)?

        public init(perHostFiles: Bool = false, proxiedAASA: (hosts: String, port: Int)? = nil) {
            self.perHostFiles = perHostFiles
            self.proxiedAASA = proxiedAASA
        }
    }

    /// Makes the CA and certificates, writes the sites, and starts nginx with `workerProcesses`
    /// workers; returns once nginx accepts connections.
    public init(workerProcesses: Int = 1, defaultServer: DefaultServerOptions = DefaultServerOptions()) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-fleet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        self.directory = directory
        googleAPI = try FakeDigitalAssetLinksAPI(
            documentRoot: directory.appendingPathComponent("www"),
            answers: Dictionary(FleetSite.androidScenarios().map { ("\($0.name).\(Self.domain)", $0.google) }) { a, _ in a })
        do {
            authority = try TestCertificateAuthority(directory: directory)
            let wildcard = try authority.issue("wildcard", names: ["*.\(Self.domain)", Self.domain])
            let certificates: [FleetSite.Certificate: TestCertificateAuthority.Issued] = [
                .wildcard: wildcard,
                .expired: try authority.issue("expired", names: ["expired.\(Self.domain)"], validity: .expired),
                .otherName: try authority.issue("othername", names: ["other.invalid"]),
                .selfSigned: try authority.selfSigned("selfsigned", name: "selfsigned.\(Self.domain)"),
            ]
            let signed = try authority.cmsSign(FleetFiles.good, with: wildcard, label: "signed")

            let hang = try MisbehavingServer(.hang)
            let reset = try MisbehavingServer(.reset)
            let drip = try MisbehavingServer(.drip)
            misbehaving = [hang, reset, drip]
            let android = FleetSite.androidScenarios()
            let web = FleetSite.webScenarios()
            let sites = FleetSite.scenarios(signed: signed, dripPort: drip.port) + android + web
            scenarios = sites.dropLast(android.count + web.count).map(\.name).sorted()
            androidScenarios = android.map(\.name).sorted()
            webScenarios = web.map(\.name).sorted()

            var lastError: (any Error)?
            var started: (Process, Int)?
            for _ in 0..<5 {
                let port = try Self.freePort()
                let config = try Self.writeSites(sites, certificates: certificates, port: port, googleAPIPort: googleAPI.port,
                                                 workers: workerProcesses, defaultServer: defaultServer, in: directory)
                do {
                    started = (try Self.startNginx(config: config, port: port, in: directory), port)
                    break
                } catch {
                    lastError = error
                }
            }
            guard let (process, port) = started else {
                for server in misbehaving { server.stop() }
                throw lastError ?? FleetError(message: "nginx did not start")
            }
            nginx = process
            self.port = port
            connectTo = ["hang.\(Self.domain):443:127.0.0.1:\(hang.port)",
                         "reset.\(Self.domain):443:127.0.0.1:\(reset.port)",
                         "::127.0.0.1:\(port)"]
        } catch {
            googleAPI.stop()
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    deinit { stop() }

    /// Stops nginx and the misbehaving servers and removes the temp directory. Idempotent.
    public func stop() {
        lock.lock()
        let already = stopped
        stopped = true
        lock.unlock()
        guard !already else { return }
        if nginx.isRunning {
            nginx.terminate()
            nginx.waitUntilExit()
        }
        for server in misbehaving { server.stop() }
        googleAPI.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Makes the fake CDN serve `body` as its copy of `host`'s AASA (a host of no scenario; nginx reads it per request).
    public func serveCDNCopy(_ body: [UInt8], for host: String) throws {
        let file = directory.appendingPathComponent("cdn/a/v1/\(host)")
        try Self.write(body, to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
    }

    /// Makes the fake CDN serve `body` as its copy of every host that has no copy of its own (written with
    /// `serveCDNCopy`) and no scenario: one file for a benchmark's million names instead of a million.
    /// Before this is called such a host gets Apple's 404 for a host it has no file of.
    public func serveDefaultCDNCopy(_ body: [UInt8]) throws {
        let file = directory.appendingPathComponent("cdn/\(Self.defaultCDNCopy)")
        try Self.write(body, to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
    }

    /// The default copy's path under the CDN's root: outside /a/v1/, so no host's own URL can name it.
    private static let defaultCDNCopy = "default-copy"

    /// Every request nginx has answered so far, in the order it logged them (written as each completes).
    public func requests() -> [FleetRequest] {
        let text = (try? String(contentsOf: directory.appendingPathComponent("access.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap(FleetRequest.init(line:))
    }

    /// Makes the default server answer `host` (a name no scenario claims) at `path` with `body`, deployed
    /// as `DeployedFile` does; nil removes it, so the default file answers again. Needs `perHostFiles`.
    public func hostFile(_ body: [UInt8]?, host: String, at path: String) throws {
        let file = hostFileURL(host: host, at: path)
        guard let body else {
            try? FileManager.default.removeItem(at: file)
            return
        }
        try DeployedFile.write(body, to: file)
    }

    /// Where `hostFile` keeps `host`'s own file at `path` (a benchmark links one large file there for many hosts).
    public func hostFileURL(host: String, at path: String) -> URL {
        directory.appendingPathComponent("www/_hosts/\(host)\(path)")
    }

    /// Replaces what `label`'s host serves at `path` (nginx reads files from disk per request): the
    /// "file that changes" scenario. The fake Google API follows at once unless it was told to lag.
    /// `modified` sets the file's modification time (nginx's Last-Modified, and half of its ETag).
    public func serve(_ body: [UInt8], at path: String, on label: String, modified: Date? = nil) throws {
        let file = directory.appendingPathComponent("www/\(host(label))\(path)")
        try Self.write(body, to: file)
        var attributes: [FileAttributeKey: Any] = [.posixPermissions: 0o644]
        if let modified { attributes[.modificationDate] = modified }
        try FileManager.default.setAttributes(attributes, ofItemAtPath: file.path)
    }

    // MARK: - nginx

    /// Writes every site's files and the fake CDN's copies, and the nginx.conf that serves them;
    /// returns the config's path.
    private static func writeSites(_ sites: [FleetSite], certificates: [FleetSite.Certificate: TestCertificateAuthority.Issued],
                                   port: Int, googleAPIPort: Int, workers: Int, defaultServer: DefaultServerOptions,
                                   in directory: URL) throws -> URL {
        let fm = FileManager.default
        let layout = NginxLayout(port: port, www: directory.appendingPathComponent("www"), cdnRoot: directory.appendingPathComponent("cdn"))
        try? fm.removeItem(at: layout.www)
        try? fm.removeItem(at: layout.cdnRoot)
        guard let wildcard = certificates[.wildcard] else { throw FleetError(message: "no wildcard certificate") }

        var servers: [String] = []
        var cdnLocations: [String] = []
        for site in sites {
            cdnLocations.append(try layout.cdnLocation(site))
            guard site.servedByNginx else { continue }
            servers.append(try layout.server(site, certificates: certificates))
        }
        servers += try layout.sharedServers(wildcard: wildcard, googleAPIPort: googleAPIPort, defaultServer: defaultServer,
                                            cdnLocations: cdnLocations)

        let temp = directory.appendingPathComponent("nginx-temp").path
        try fm.createDirectory(atPath: temp, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("nginx.conf")
        try Data(nginxConfig(servers: servers, workers: workers, temp: temp, in: directory).utf8).write(to: file)
        // Workers run as nobody when we are root: they must be able to read the docroots.
        _ = try? ToolRunner.run("chmod", ["-R", "a+rX", layout.www.path, layout.cdnRoot.path], in: directory)
        try backdate([layout.www, layout.cdnRoot])
        return file
    }

    /// nginx.conf around the server blocks: one master, `workers` workers, and an access log that
    /// says which connection carried each request.
    private static func nginxConfig(servers: [String], workers: Int, temp: String, in directory: URL) -> String {
        let isRoot = getuid() == 0
        return """
            daemon off;
            master_process on;
            worker_processes \(max(1, workers));
            \(isRoot ? "user nobody nogroup;" : "")
            pid \(directory.appendingPathComponent("nginx.pid").path);
            error_log \(directory.appendingPathComponent("error.log").path) warn;
            events { worker_connections 4096; }
            http {
                # One line per request: which connection carried it, its place on that connection and
                # whether the TLS session was resumed, so tests and benchmarks can count handshakes.
                log_format fleet '$connection $connection_requests $ssl_session_reused $host $request_uri $status "$http_user_agent"';
                access_log \(directory.appendingPathComponent("access.log").path) fleet;
                server_tokens off;
                client_body_temp_path \(temp)/body;
                proxy_temp_path \(temp)/proxy;
                fastcgi_temp_path \(temp)/fastcgi;
                uwsgi_temp_path \(temp)/uwsgi;
                scgi_temp_path \(temp)/scgi;
                ssl_protocols TLSv1.2 TLSv1.3;
                keepalive_requests 10000;
                \(servers.joined(separator: "\n"))
            }

            """
    }

    /// Where the fleet's files live and where nginx listens: what every server block is written from.
    private struct NginxLayout {
        let port: Int
        /// One docroot per scenario host, `_default` and `_hosts` (the default server's).
        let www: URL
        /// The fake CDN's copies, under `a/v1/HOST`.
        let cdnRoot: URL

        var listen: String { "listen 127.0.0.1:\(port) ssl http2;" }

        func tls(_ c: TestCertificateAuthority.Issued) -> String {
            "ssl_certificate \(c.certificateFile); ssl_certificate_key \(c.keyFile);"
        }

        /// The fake CDN's answer for a site: its copy (written here) with Apple's headers, or Apple's failure.
        func cdnLocation(_ site: FleetSite) throws -> String {
            let hostName = "\(site.name).\(domain)"
            switch site.cdn {
            case .copy(let body), .followedCopy(let body, from: _):
                var from = ["https://\(hostName)/.well-known/apple-app-site-association"]
                if case .followedCopy(_, let urls) = site.cdn { from = urls }
                try write(body, to: cdnRoot.appendingPathComponent("a/v1/\(hostName)"))
                return """
                    location = /a/v1/\(hostName) {
                        default_type application/json;
                        add_header Apple-From "\(from.joined(separator: ", "))";
                        add_header Apple-Origin-Format json;
                        add_header Apple-Try-Direct false;
                        add_header Cache-Control "max-age=21600,public";
                        add_header Age 5400;
                    }
                    """
            case .failure(let reason):
                return """
                    location = /a/v1/\(hostName) {
                        add_header Apple-Failure-Reason "\(reason)" always;
                        add_header Apple-Failure-Details '{"cause":"\(reason)"}' always;
                        add_header Apple-Try-Direct true always;
                        add_header Cache-Control "max-age=3600" always;
                        return 404;
                    }
                    """
            }
        }

        /// A scenario's own server: its files written to its docroot, each served with its content type.
        func server(_ site: FleetSite, certificates: [FleetSite.Certificate: TestCertificateAuthority.Issued]) throws -> String {
            let hostName = "\(site.name).\(domain)"
            let docroot = www.appendingPathComponent(hostName)
            try FileManager.default.createDirectory(at: docroot, withIntermediateDirectories: true)
            var locations: [String] = []
            for file in site.files {
                try write(file.body, to: docroot.appendingPathComponent(String(file.path.dropFirst())))
                let type = file.contentType.map { "default_type \($0);" } ?? #"default_type "";"#
                if file.path != "/index.html" {
                    locations.append("location = \(file.path) { types { } \(type) }")
                }
            }
            guard let certificate = certificates[site.certificate] else { throw FleetError(message: "missing certificate") }
            return """
                server {
                    \(listen)
                    server_name \(hostName);
                    \(tls(certificate))
                    root \(docroot.path);
                    types { } default_type text/html;
                    \(site.directives)
                    \(locations.joined(separator: "\n    "))
                }
                """
        }

        /// The servers no scenario owns: the proxied default (when asked for), the default server,
        /// the fake Google API and the fake CDN.
        func sharedServers(wildcard: TestCertificateAuthority.Issued, googleAPIPort: Int, defaultServer: DefaultServerOptions,
                           cdnLocations: [String]) throws -> [String] {
            var servers: [String] = []
            let defaultRoot = www.appendingPathComponent("_default")
            try write(FleetFiles.good, to: defaultRoot.appendingPathComponent(".well-known/apple-app-site-association"))
            // A host's own file first (www/_hosts/NAME/PATH), then the default one; nginx checks per request.
            let perHost = defaultServer.perHostFiles
                ? "location / { root \(www.path); try_files /_hosts/$host$uri /_default$uri =404; }" : ""
            if let proxied = defaultServer.proxiedAASA {
                servers.append("""
                    server {
                        \(listen)
                        server_name ~\(proxied.hosts);
                        \(tls(wildcard))
                        root \(defaultRoot.path);
                        types { } default_type application/json;
                        location = \(FleetSite.wellKnown) {
                            proxy_pass http://127.0.0.1:\(proxied.port); proxy_buffering off; proxy_read_timeout 600s;
                        }
                    }
                    """)
            }
            servers.append("""
                server {
                    listen 127.0.0.1:\(port) ssl http2 default_server;
                    server_name _;
                    \(tls(wildcard))
                    root \(defaultRoot.path);
                    types { } default_type application/json;
                    \(perHost)
                }
                server {
                    \(listen)
                    server_name dal.\(domain);
                    \(tls(wildcard))
                    location / { proxy_pass http://127.0.0.1:\(googleAPIPort); proxy_http_version 1.1; proxy_set_header Connection ""; }
                }
                server {
                    \(listen)
                    server_name cdn.\(domain);
                    \(tls(wildcard))
                    root \(cdnRoot.path);
                    \(cdnLocations.joined(separator: "\n    "))
                    # Any other host: the copy written with serveCDNCopy, else the default copy (serveDefaultCDNCopy),
                    # else Apple's answer for a host it has no file of.
                    location /a/v1/ {
                        default_type application/json;
                        try_files $uri /\(defaultCDNCopy) @nocopy;
                    }
                    location @nocopy {
                        add_header Apple-Failure-Reason "SWCERR00101 Bad HTTP Response: 404 Not Found" always;
                        add_header Apple-Try-Direct true always;
                        return 404;
                    }
                }
                """)
            return servers
        }
    }

    /// The scenarios' files were deployed before the test began, as a site's are: an hour old. A
    /// file modified in the second it is served gets no trusted ETag (nginx's ETag is its
    /// modification second and size), which would make a test's first conditional fetch depend on
    /// whether the clock ticked between starting the fleet and the first check. Files replaced
    /// later by `serve` keep their real time: that is the change a test makes (`deploy` replaces a
    /// file as a deployment, hour-old like these).
    private static func backdate(_ roots: [URL]) throws {
        let deployed = Date().addingTimeInterval(-3600)
        for root in roots {
            guard let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in files {
                try FileManager.default.setAttributes([.modificationDate: deployed], ofItemAtPath: file.path)
            }
        }
    }

    private static func write(_ bytes: [UInt8], to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    private static func startNginx(config: URL, port: Int, in directory: URL) throws -> Process {
        // nginx runs under a small shell watchdog: if this process dies without calling stop()
        // (a crashed test run), the watchdog sees its parent gone and stops nginx, so no server
        // outlives the tests. SIGTERM from stop() is forwarded the same way.
        let watchdog = """
            "$0" "$@" & n=$!
            trap 'kill $n 2>/dev/null; wait $n; exit 0' TERM INT
            while kill -0 $PPID 2>/dev/null && kill -0 $n 2>/dev/null; do sleep 0.2; done
            kill $n 2>/dev/null; wait $n
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", watchdog, ToolRunner.locate("nginx"),
                             "-p", directory.path, "-c", config.path, "-e", directory.appendingPathComponent("error.log").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Generous: nginx loading a dozen certificates on a slow, loaded machine must not fail a test.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if !process.isRunning {
                let log = (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
                throw FleetError(message: "nginx exited with \(process.terminationStatus): \(log)")
            }
            if canConnect(port: port) { return process }
            usleep(20_000)
        }
        process.terminate()
        process.waitUntilExit()
        throw FleetError(message: "nginx did not accept connections on port \(port) within 60 s")
    }

    static func canConnect(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    /// A port nobody listens on right now (bind to 0, read it, release it); the caller retries on a race.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw FleetError(message: "socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard ok else { throw FleetError(message: "bind() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

public struct FleetError: Error, CustomStringConvertible {
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}

extension TestTLSFleet {
    /// Starts a fleet, runs `body`, and stops the fleet whether `body` throws or not.
    public static func with<T>(workerProcesses: Int = 1, _ body: (TestTLSFleet) async throws -> T) async throws -> T {
        let fleet = try TestTLSFleet(workerProcesses: workerProcesses)
        do {
            let result = try await body(fleet)
            fleet.stop()
            return result
        } catch {
            fleet.stop()
            throw error
        }
    }
}

/// One line of the fleet's access log.
public struct FleetRequest: Hashable, Sendable {
    /// nginx's connection serial number: requests with the same one shared a TCP connection and its handshake.
    public var connection: Int
    /// This request's place on its connection (1 for the first).
    public var connectionRequest: Int
    /// The TLS session was resumed rather than negotiated in full.
    public var sessionReused: Bool
    public var host: String
    public var uri: String
    public var status: Int
    public var userAgent: String

    init?(line: Substring) {
        guard let quote = line.firstIndex(of: "\"") else { return nil }
        let fields = line[..<quote].split(separator: " ")
        guard fields.count == 6, let connection = Int(fields[0]), let place = Int(fields[1]), let status = Int(fields[5]) else { return nil }
        self.connection = connection
        connectionRequest = place
        sessionReused = fields[2] == "r"
        host = String(fields[3])
        uri = String(fields[4])
        self.status = status
        userAgent = String(line[line.index(after: quote)...].dropLast())
    }
}
