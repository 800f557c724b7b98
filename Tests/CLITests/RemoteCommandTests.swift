import Foundation
import Store
import TestSupport
import Testing

/// The commands run with `--server URL` against a real `serve` (real PostgreSQL, real sockets, the
/// built binary on both ends): each prints what the same command prints against the database, a
/// read-only token is refused for every write (and reads), a wrong or missing token is refused, and
/// the options are checked before anything is sent.
@Suite(.serialized) struct RemoteCommandTests {
    static let list = "alpha.example\nbeta.example,ABCDE12345.com.example.app\nnot a host\n"

    /// A token in a file, as `--token-file` reads it (with the newline `token create > FILE` leaves).
    static func tokenFile(_ token: String, in scratch: ScratchDirectory, name: String = "token") throws -> String {
        try scratch.write(name, token + "\n")
    }

    static func readOnlyToken(_ server: ContractServer) throws -> String {
        let created = try BuiltCommand.run(["token", "create", "ci-read", "--read-only", "--database-url", server.database.url])
        guard created.status == 0 else { throw ServeProcess.Failure(description: "token create: \(created.stderr)") }
        return created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func remoteCommandsPrintWhatLocalOnesPrint() throws {
        let server = try ContractServer()
        let scratch = try ScratchDirectory()
        let remote = ["--server", server.origin, "--token-file", try Self.tokenFile(server.token, in: scratch)]
        let local = try TestPostgres.createDatabase()
        defer { local.drop() }

        // import: the same report, the same exit status (a refused line: 1), from the server and from a database.
        let imported = try BuiltCommand.run(["import", "-"] + remote, stdin: Array(Self.list.utf8))
        let importedLocally = try BuiltCommand.run(["import", "-", "--database-url", local.url], stdin: Array(Self.list.utf8))
        #expect(imported.status == 1 && importedLocally.status == 1, "\(imported.stderr)")
        #expect(imported.stdout == importedLocally.stdout)
        #expect(imported.stdout.contains("added 2, skipped 0 (already registered), refused 1"), "\(imported.stdout)")
        let again = try BuiltCommand.run(["import", "-"] + remote, stdin: Array("alpha.example\n".utf8))
        #expect(again.status == 0 && again.stdout.contains("skipped alpha.example: already registered"), "\(again.output)")

        // status: the server's answer and the database print the same table and the same JSON.
        for format in [[], ["--json"]] {
            let viaServer = try BuiltCommand.run(["status"] + format + remote)
            let viaDatabase = try BuiltCommand.run(["status"] + format + ["--database-url", server.database.url])
            #expect(viaServer.status == viaDatabase.status, "\(viaServer.stderr)")
            #expect(viaServer.stdout == viaDatabase.stdout)
            #expect(viaServer.stdout.contains("beta.example"), "\(viaServer.stdout)")
        }

        // check-now: a registered host is requested (the server's database says so), one that is not is named.
        let checked = try BuiltCommand.run(["check-now", "alpha.example", "missing.example"] + remote)
        #expect(checked.status == 1)
        #expect(checked.stdout == "requested alpha.example\n", "\(checked.stdout)")
        #expect(checked.stderr.contains("missing.example is not registered"), "\(checked.stderr)")
        let db = Database(configuration: server.database.configuration, poolSize: 1)
        defer { db.close() }
        #expect(try db.domain(host: "alpha.example")?.checkRequestedAt != nil)
        #expect(try db.domain(host: "beta.example")?.checkRequestedAt == nil)

        // apply: a refused file is reported as locally (every problem with its line, exit 65), changing nothing.
        let environment = ConfigCommandTests.environment
        let refused = try BuiltCommand.run(["apply", "-", "--dry-run"] + remote, stdin: Array(ConfigCommandTests.file.utf8), environment: environment)
        let refusedLocally = try BuiltCommand.run(["apply", "-", "--dry-run", "--database-url", server.database.url],
                                                  stdin: Array(ConfigCommandTests.file.utf8), environment: environment)
        #expect(refused.status == 65 && refusedLocally.status == 65, "\(refused.output)")
        #expect(refused.stderr == refusedLocally.stderr && refused.stdout == refusedLocally.stdout, "\(refused.stderr)")

        // apply --dry-run: the same plan as locally; then apply; then no drift. ${NAME} comes from the client's environment.
        let good = ConfigCommandTests.file.replacingOccurrences(of: "\"evil\\e[2J.example\"", with: "shop.example")
        let planned = try BuiltCommand.run(["apply", "-", "--dry-run", "--exit-code"] + remote, stdin: Array(good.utf8), environment: environment)
        let plannedLocally = try BuiltCommand.run(["apply", "-", "--dry-run", "--exit-code", "--database-url", server.database.url],
                                                  stdin: Array(good.utf8), environment: environment)
        #expect(planned.status == 2 && plannedLocally.status == 2, "\(planned.output)")
        #expect(planned.stdout == plannedLocally.stdout && planned.stdout.contains("+ domain example.com"), "\(planned.stdout)")
        let applied = try BuiltCommand.run(["apply", "-", "--json"] + remote, stdin: Array(good.utf8), environment: environment)
        #expect(applied.status == 0 && applied.stdout.contains("\"applied\":true"), "\(applied.output)")
        ConfigCommandTests.noSecret(applied)
        #expect(try db.domain(host: "example.com")?.intervalSeconds == 900)
        let noDrift = try BuiltCommand.run(["apply", "-", "--dry-run", "--exit-code"] + remote, stdin: Array(good.utf8), environment: environment)
        #expect(noDrift.status == 0 && noDrift.stdout.contains("No changes"), "\(noDrift.output)")

        // export --yaml: the server's file is the database's, byte for byte, with no secret in it.
        let exported = try BuiltCommand.run(["export", "--yaml"] + remote)
        let exportedLocally = try BuiltCommand.run(["export", "--yaml", "--database-url", server.database.url])
        #expect(exported.status == 0 && exported.stdout == exportedLocally.stdout, "\(exported.output)")
        #expect(exported.stdout.contains("${HOOK_SECRET}"), "\(exported.stdout)")
        ConfigCommandTests.noSecret(exported)

        // app import: the same plan as locally (dry run), then registered on the server.
        let entitlements = Array(AppCommandTests.entitlements.utf8)
        let dry = try BuiltCommand.run(["app", "import", "--entitlements", "-", "--dry-run"] + remote, stdin: entitlements)
        let dryLocally = try BuiltCommand.run(["app", "import", "--entitlements", "-", "--dry-run", "--database-url", server.database.url],
                                              stdin: entitlements)
        #expect(dry.status == 0 && dry.stdout == dryLocally.stdout, "\(dry.output)")
        #expect(dry.stdout.contains("would register com.example.shop"), "\(dry.stdout)")
        let badFile = Array(AppCommandTests.entitlements.replacingOccurrences(of: "applinks:shop.example<", with: "applinks:https://shop.example<").utf8)
        let bad = try BuiltCommand.run(["app", "import", "--entitlements", "-"] + remote, stdin: badFile)
        let badLocally = try BuiltCommand.run(["app", "import", "--entitlements", "-", "--database-url", server.database.url], stdin: badFile)
        #expect(bad.status == 1 && bad.stderr == badLocally.stderr && bad.stderr.contains("refused entitlements: line 7: "), "\(bad.stderr)")
        let registered = try BuiltCommand.run(["app", "import", "--entitlements", "-", "--name", "Shop"] + remote, stdin: entitlements)
        #expect(registered.status == 0 && registered.stdout.contains("registered app"), "\(registered.output)")
        let listed = try BuiltCommand.run(["app", "list", "--database-url", server.database.url])
        #expect(listed.stdout.contains("Shop"), "\(listed.stdout)")
        let taken = try BuiltCommand.run(["app", "import", "--entitlements", "-", "--name", "Shop"] + remote, stdin: entitlements)
        #expect(taken.status == 1 && taken.stderr.contains("refused name: "), "\(taken.stderr)")
    }

    /// The test: a read-only token reads (status, export, a dry run) and every write is
    /// refused with exit 77 and words that say why, changing nothing.
    @Test func readOnlyTokenIsRefusedForWrites() throws {
        let server = try ContractServer()
        let scratch = try ScratchDirectory()
        let readOnly = ["--server", server.origin, "--token-file", try Self.tokenFile(try Self.readOnlyToken(server), in: scratch)]
        let admin = ["--server", server.origin, "--token-file", try Self.tokenFile(server.token, in: scratch, name: "admin")]
        #expect(try BuiltCommand.run(["import", "-"] + admin, stdin: Array("alpha.example\n".utf8)).status == 0)

        #expect(try BuiltCommand.run(["status"] + readOnly).status == 0)
        #expect(try BuiltCommand.run(["export", "--yaml"] + readOnly).status == 0)
        let plan = "domains:\n  - host: gamma.example\n"
        let dryRun = try BuiltCommand.run(["apply", "-", "--dry-run"] + readOnly, stdin: Array(plan.utf8))
        #expect(dryRun.status == 0 && dryRun.stdout.contains("+ domain gamma.example"), "\(dryRun.output)")

        let writes: [(arguments: [String], stdin: String)] = [
            (["import", "-"], "delta.example\n"),
            (["check-now", "alpha.example"], ""),
            (["apply", "-"], plan),
            (["app", "import", "--entitlements", "-"], AppCommandTests.entitlements),
            (["app", "add", "--app-id", "ABCDE12345.com.example.shop", "--domain", "applinks:shop.example"], ""),
        ]
        for write in writes {
            let refused = try BuiltCommand.run(write.arguments + readOnly, stdin: Array(write.stdin.utf8))
            #expect(refused.status == 77, "\(write.arguments): \(refused.output)")
            #expect(refused.stderr.contains("error: the token is read-only (HTTP 403): it may read (status, export, apply --dry-run) but not change anything"),
                    "\(write.arguments): \(refused.stderr)")
        }
        let db = Database(configuration: server.database.configuration, poolSize: 1)
        defer { db.close() }
        #expect(try db.domain(host: "delta.example") == nil && db.domain(host: "gamma.example") == nil)
        #expect(try db.domain(host: "alpha.example")?.checkRequestedAt == nil)
        #expect(try BuiltCommand.run(["app", "list", "--database-url", server.database.url]).stdout.isEmpty)
    }

    /// A wrong token (401), none at all, one on the command line, a server and a database together, a
    /// token in clear over a network, a server that is not there and one that speaks no TLS: each is
    /// refused with its own words and exit status.
    @Test func tokenAndServerProblems() throws {
        let server = try ContractServer()
        let scratch = try ScratchDirectory()
        let wrong = try Self.tokenFile("aasa_wrong", in: scratch)

        let unauthorized = try BuiltCommand.run(["status", "--server", server.origin, "--token-file", wrong])
        #expect(unauthorized.status == 77)
        #expect(unauthorized.stderr.contains("error: the server refused the token (HTTP 401)"), "\(unauthorized.stderr)")
        let fromEnvironment = try BuiltCommand.run(["status", "--server", server.origin], environment: ["AASA_MONITOR_TOKEN": server.token])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.output)")

        let usage: [(arguments: [String], words: String)] = [
            (["status", "--server", server.origin], "--server needs an API token: give --token-file PATH, or set AASA_MONITOR_TOKEN"),
            (["status", "--server", server.origin, "--token", server.token], "a token on the command line is visible to every user"),
            (["status", "--server", server.origin, "--token-file", wrong, "--database-url", server.database.url],
             "--server works through the server's API, --database-url on a database directly: give one or the other."),
            (["import", "-", "--token-file", wrong], "--token-file and --server-ca-file go with --server URL."),
            (["status", "--server", "ftp://127.0.0.1/", "--token-file", wrong], "give an https:// URL"),
            (["status", "--server", "http://user:pw@127.0.0.1:\(server.port)", "--token-file", wrong], "holds a user name or password"),
        ]
        for (arguments, words) in usage {
            let refused = try BuiltCommand.run(arguments, environment: ["AASA_MONITOR_TOKEN": ""])
            #expect(refused.status == 64, "\(arguments): \(refused.output)")
            #expect(refused.stderr.contains(words), "\(arguments): \(refused.stderr)")
            #expect(!refused.output.contains(server.token), "a token is never printed")
        }

        // A list past the 1 MB a server takes: refused with the words, before a byte is sent, and nothing registered.
        let admin = try Self.tokenFile(server.token, in: scratch, name: "admin")
        let large = (1...90_000).map { "host-\($0).example\n" }.joined()
        let tooLarge = try BuiltCommand.run(["import", "-", "--server", server.origin, "--token-file", admin], stdin: Array(large.utf8))
        #expect(tooLarge.status == 65)
        #expect(tooLarge.stderr.contains("more than the 1 MB a server takes; split the file"), "\(tooLarge.stderr)")
        #expect(try BuiltCommand.run(["status", "--server", server.origin, "--token-file", admin]).stdout.contains("No domains registered."))

        // In clear over a network: refused before connecting (192.0.2.1 is a documentation address).
        let clear = try BuiltCommand.run(["status", "--server", "http://192.0.2.1:8080", "--token-file", wrong])
        #expect(clear.status == 64 && clear.stderr.contains("http:// would send the token in clear to 192.0.2.1; use https://"), "\(clear.output)")

        // Nothing listening: a port serve held and gave up.
        let gone = try ContractServer()
        let gonePort = gone.port
        _ = try gone.serve.terminate()
        let refusedConnection = try BuiltCommand.run(["status", "--server", "http://127.0.0.1:\(gonePort)", "--token-file", wrong])
        #expect(refusedConnection.status == 69)
        #expect(refusedConnection.stderr.contains("error: cannot connect to http://127.0.0.1:\(gonePort)"), "\(refusedConnection.stderr)")

        // https:// to a server that speaks plain HTTP: the TLS handshake fails, and the words say so.
        let tls = try BuiltCommand.run(["status", "--server", "https://127.0.0.1:\(server.port)", "--token-file", wrong])
        #expect(tls.status == 69)
        #expect(tls.stderr.contains("error: the TLS handshake with https://127.0.0.1:\(server.port) failed"), "\(tls.stderr)")
    }

    /// `https://` through a real TLS server (nginx in front of `serve`, as operators deploy it): a
    /// certificate from a private CA is trusted with `--server-ca-file` and the answer is the one
    /// plain HTTP gives; without it the certificate is not trusted, in words, exit 69.
    @Test func httpsWithAPrivateCA() throws {
        let server = try ContractServer()
        let proxy = try TLSProxy(to: server.port)
        let scratch = try ScratchDirectory()
        let token = try Self.tokenFile(server.token, in: scratch)
        #expect(try BuiltCommand.run(["import", "-", "--server", server.origin, "--token-file", token],
                                     stdin: Array("alpha.example\n".utf8)).status == 0)
        let https = "https://localhost:\(proxy.port)"

        let trusted = try BuiltCommand.run(["status", "--json", "--server", https, "--token-file", token,
                                            "--server-ca-file", proxy.authority.certificateFile])
        let plain = try BuiltCommand.run(["status", "--json", "--server", server.origin, "--token-file", token])
        #expect(trusted.status == 0 && trusted.stdout == plain.stdout && trusted.stdout.contains("alpha.example"), "\(trusted.output)")
        let checked = try BuiltCommand.run(["check-now", "alpha.example", "--server", https, "--token-file", token,
                                            "--server-ca-file", proxy.authority.certificateFile])
        #expect(checked.status == 0 && checked.stdout == "requested alpha.example\n", "\(checked.output)")

        let untrusted = try BuiltCommand.run(["status", "--server", https, "--token-file", token])
        #expect(untrusted.status == 69)
        #expect(untrusted.stderr.contains("error: the certificate of \(https) is not trusted"), "\(untrusted.stderr)")
        #expect(untrusted.stderr.contains("--server-ca-file PEM"), "\(untrusted.stderr)")
    }
}
