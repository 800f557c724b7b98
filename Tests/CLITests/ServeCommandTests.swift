import Foundation
import Glibc
import Store
import TestSupport
import Testing

@Suite struct ServeCommandTests {
    @Test func servesOnTheEmbeddedDatabaseAndStopsItOnSIGTERM() throws {
        let dataDirectory = try TemporaryCluster.makeDirectory(prefix: "aasa-test-serve")
        defer { try? FileManager.default.removeItem(atPath: dataDirectory) }
        let serve = try ServeProcess(arguments: ["--data-dir", dataDirectory])
        let port = try serve.waitForPort()

        let health = try PlainHTTPResponse.get(port: port, path: "/healthz")
        #expect(health.status == 200, "\(serve.standardError)")
        #expect(health.body.contains(#""database":"ok""#))
        // Before the first account exists, the dashboard asks for one.
        #expect(try PlainHTTPResponse.get(port: port, path: "/").status == 303)
        let setup = try PlainHTTPResponse.get(port: port, path: "/setup")
        #expect(setup.status == 200)
        #expect(setup.body.contains("aasa-monitor"))
        #expect(setup.body.contains("Create the first administrator account"))
        #expect(setup.body.contains("name=\"setup_code\""))
        // The form asks for the one-time code only the server's log shows.
        let deadline = ContinuousClock.now + .seconds(10)
        while !serve.standardError.contains("with the setup code "), ContinuousClock.now < deadline { usleep(20_000) }
        let logged = serve.standardError.split(separator: "\n").first { $0.contains("with the setup code ") }
        let code = logged.map { String($0.split(separator: " ").last ?? "") } ?? ""
        #expect(code.wholeMatch(of: /[A-Z2-9]{4}(-[A-Z2-9]{4}){3}/) != nil, "\(serve.standardError)")
        #expect(logged?.contains("http://127.0.0.1:\(port)/setup") == true)
        #expect(FileManager.default.fileExists(atPath: dataDirectory + "/postgresql/postmaster.pid"))

        // A second command on the same data directory joins the cluster and leaves it running.
        let migrate = try BuiltCommand.run(["migrate", "--data-dir", dataDirectory])
        #expect(migrate.status == 0, "\(migrate.stderr)")
        #expect(migrate.stdout.contains("up to date"))
        #expect(try PlainHTTPResponse.get(port: port, path: "/healthz").status == 200)

        #expect(try serve.terminate() == 0)
        // serve was the last user: the embedded server is stopped.
        #expect(!FileManager.default.fileExists(atPath: dataDirectory + "/postgresql/postmaster.pid"), "\(serve.standardError)")
    }

    @Test func healthzTurns503WhenTheDatabaseGoesAndRecovers() throws {
        let clusterDirectory = try TemporaryCluster.makeDirectory(prefix: "aasa-test-serve-db")
        defer { try? FileManager.default.removeItem(atPath: clusterDirectory) }
        let postgres = try EmbeddedPostgres.start(.init(dataDirectory: clusterDirectory, durability: .relaxed, maxConnections: 20))
        defer { try? postgres.stop() }
        let serve = try ServeProcess(arguments: [], environment: ["DATABASE_URL": postgres.url()])
        let port = try serve.waitForPort()
        #expect(try PlainHTTPResponse.get(port: port, path: "/healthz").status == 200, "\(serve.standardError)")

        try postgres.stopServerNow()
        try waitForStatus(503, port: port)
        // The home page says so too, instead of failing.
        #expect(try PlainHTTPResponse.get(port: port, path: "/").status == 503)

        try postgres.ensureRunning()
        try waitForStatus(200, port: port)
        #expect(try PlainHTTPResponse.get(port: port, path: "/setup").status == 200)
        #expect(try serve.terminate() == 0)
    }

    @Test func refusesToStartWhenAnAppliedMigrationChanged() throws {
        let database = try TestPostgres.createDatabase(migrated: false)
        defer { database.drop() }
        let scratch = try ScratchDirectory()
        let migrations = scratch.url.appendingPathComponent("Migrations")
        try FileManager.default.createDirectory(at: migrations, withIntermediateDirectories: true)
        let file = migrations.appendingPathComponent("0001_first.sql")
        try Data("CREATE TABLE first (id integer);".utf8).write(to: file)
        let first = try BuiltCommand.run(["migrate", "--database-url", database.url, "--migrations-dir", migrations.path])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("applied 0001_first.sql"))

        try Data("CREATE TABLE first (id bigint);".utf8).write(to: file)
        let serve = try BuiltCommand.run(["serve", "--port", "0", "--database-url", database.url, "--migrations-dir", migrations.path])
        #expect(serve.status != 0)
        #expect(serve.stderr.contains("0001_first.sql was changed after it was applied"), "\(serve.stderr)")
    }

    private func waitForStatus(_ status: Int, port: Int, timeout: Duration = .seconds(60)) throws {
        let deadline = ContinuousClock.now + timeout
        var last = 0
        while ContinuousClock.now < deadline {
            last = try PlainHTTPResponse.get(port: port, path: "/healthz").status
            if last == status { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        Issue.record("/healthz stayed \(last), expected \(status)")
    }
}
