import Foundation

/// A real SMTP server for tests: Debian's python3-aiosmtpd on 127.0.0.1 and a free port, writing
/// each accepted message to a directory. Optionally offers STARTTLS (or speaks implicit TLS, for
/// smtps://) with a certificate from its own test CA, and requires AUTH with a user and password.
/// Can be stopped and started again on the same port.
public final class TestSMTP: Sendable {
    public enum Security: String, Sendable {
        /// No TLS offered.
        case plain
        /// STARTTLS offered (not required by the server; the client decides).
        case startTLS = "starttls"
        /// TLS from the first byte (smtps://).
        case implicitTLS = "smtps"
    }

    public struct Message: Sendable {
        public var mailFrom: String
        public var recipients: [String]
        /// The raw message as received (headers and MIME body).
        public var data: String
        /// Whether the session was encrypted when the message was sent.
        public var tls: Bool
        /// The user that authenticated, if any.
        public var authenticatedUser: String?
        public var receivedAt: Date
    }

    private let server: ScriptServer
    public let security: Security
    /// The CA that signed the server's certificate (nil for `.plain`); give it to the client.
    public let caFile: String?

    public init(security: Security = .plain, user: String? = nil, password: String? = nil) throws {
        var env: [String: String] = ["TEST_SMTP_SECURITY": security.rawValue]
        if let user, let password {
            env["TEST_SMTP_USER"] = user
            env["TEST_SMTP_PASSWORD"] = password
        }
        let server = try ScriptServer(name: "smtp", source: Self.python)
        var ca: String?
        if security != .plain {
            let files = try TestSMTPCertificates.make(in: server.directory)
            env["TEST_SMTP_CERT"] = files.certificate
            env["TEST_SMTP_KEY"] = files.key
            ca = files.ca
        }
        server.environment = env
        try FileManager.default.createDirectory(at: server.directory.appendingPathComponent("records"),
                                                withIntermediateDirectories: true)
        self.server = server
        self.security = security
        caFile = ca
        try self.server.start()
    }

    public var port: Int { server.port }
    /// `smtp://127.0.0.1:PORT` or `smtps://127.0.0.1:PORT`.
    public var url: String { "\(security == .implicitTLS ? "smtps" : "smtp")://127.0.0.1:\(port)" }

    public func stop() { server.stop() }
    public func start() throws { try server.start() }

    /// Stops the server and removes its directory (deinit does the same; this is for owners that
    /// never go away, such as a benchmark's top-level code).
    public func shutDown() {
        server.stop()
        server.removeFiles()
    }

    public func messages() -> [Message] {
        let dir = server.directory.appendingPathComponent("records")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [])
            .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
        return names.compactMap { name -> Message? in
            guard let data = try? Data(contentsOf: dir.appendingPathComponent(name)),
                  let r = try? JSONDecoder().decode(Record.self, from: data) else { return nil }
            return Message(mailFrom: r.mail_from, recipients: r.rcpt_tos, data: r.data, tls: r.tls,
                           authenticatedUser: r.auth_user, receivedAt: Date(timeIntervalSince1970: r.received_at))
        }
    }

    @discardableResult
    public func waitForMessages(_ count: Int, timeout: Duration = .seconds(60)) -> [Message] {
        var latest: [Message] = []
        _ = waitUntil(timeout: timeout) {
            latest = messages()
            return latest.count >= count
        }
        return latest
    }

    private struct Record: Decodable {
        var mail_from: String
        var rcpt_tos: [String]
        var data: String
        var tls: Bool
        var auth_user: String?
        var received_at: Double
    }

    static let python = parentWatchdogPython + """

import asyncio, ssl, sys
from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

directory, host, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
security = os.environ.get("TEST_SMTP_SECURITY", "plain")
user = os.environ.get("TEST_SMTP_USER")
password = os.environ.get("TEST_SMTP_PASSWORD")

context = None
if security != "plain":
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(os.environ["TEST_SMTP_CERT"], os.environ["TEST_SMTP_KEY"])

class Handler:
    async def handle_DATA(self, server, session, envelope):
        transport = server.transport
        tls = session.ssl is not None or (transport is not None and transport.get_extra_info("ssl_object") is not None)
        login = getattr(session, "login_data", None)
        write_record(directory, {
            "mail_from": envelope.mail_from, "rcpt_tos": list(envelope.rcpt_tos),
            "data": envelope.content.decode("utf-8", "replace"), "tls": bool(tls),
            "auth_user": login.decode() if isinstance(login, bytes) else login,
            "received_at": time.time(),
        })
        return "250 2.0.0 Ok: queued by the test SMTP server"

def authenticator(server, session, envelope, mechanism, auth_data):
    ok = (isinstance(auth_data, LoginPassword) and user is not None
          and auth_data.login.decode() == user and auth_data.password.decode() == password)
    return AuthResult(success=ok, handled=False, auth_data=auth_data)

def factory():
    options = dict(hostname="test-smtp.localhost", ident="aasa-monitor test SMTP")
    if security == "starttls":
        options["tls_context"] = context
    if user is not None:
        options.update(authenticator=authenticator, auth_required=True,
                       auth_require_tls=(security != "plain"))
    return SMTP(Handler(), **options)

async def main():
    loop = asyncio.get_running_loop()
    server = await loop.create_server(factory, host, port, reuse_address=True,
                                      ssl=context if security == "smtps" else None)
    write_port(directory, server.sockets[0].getsockname()[1])
    await server.serve_forever()

asyncio.run(main())
"""
}

/// A throwaway CA and a server certificate for 127.0.0.1/localhost, made with the openssl CLI.
enum TestSMTPCertificates {
    struct Files {
        var ca: String
        var certificate: String
        var key: String
    }

    static func make(in directory: URL) throws -> Files {
        let d = directory.path
        let steps: [[String]] = [
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=aasa-monitor test SMTP CA",
             "-keyout", "\(d)/ca.key", "-out", "\(d)/ca.pem",
             "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"],
            ["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1",
             "-keyout", "\(d)/server.key", "-out", "\(d)/server.csr"],
            ["x509", "-req", "-in", "\(d)/server.csr", "-CA", "\(d)/ca.pem", "-CAkey", "\(d)/ca.key",
             "-CAcreateserial", "-days", "2", "-out", "\(d)/server.pem", "-extfile", "\(d)/server.ext"],
        ]
        try Data("subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n".utf8)
            .write(to: directory.appendingPathComponent("server.ext"))
        for args in steps {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            p.arguments = args
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            p.waitUntilExit()
            guard p.terminationStatus == 0 else {
                throw ScriptServerError(message: "openssl \(args.prefix(2).joined(separator: " ")) failed")
            }
        }
        return Files(ca: "\(d)/ca.pem", certificate: "\(d)/server.pem", key: "\(d)/server.key")
    }
}
