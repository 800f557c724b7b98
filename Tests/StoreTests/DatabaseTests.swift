import Foundation
import Store
import TestSupport
import Testing

@Suite struct DatabaseTests {
    @Test func hostileValuesRoundTripAsData() throws {
        try TestPostgres.withDatabase { db in
            let hostile = "x'); DROP TABLE settings; --"
            let quotes = "O'Brien \"quoted\" \\ back\\slash $1 ? ;"
            try db.execute("INSERT INTO settings (key, value) VALUES ($1, $2)", hostile, quotes)
            let value: String = try db.value("SELECT value FROM settings WHERE key = $1", hostile)
            #expect(value == quotes)
            let tables: Int = try db.value("SELECT count(*) FROM pg_tables WHERE tablename = $1", "settings")
            #expect(tables == 1)
        }
    }

    @Test func typedValuesRoundTrip() throws {
        try TestPostgres.withDatabase(migrated: false) { db in
            let bytes: [UInt8] = [0, 1, 2, 0x27, 0x5C, 0xFF] + Array("{\"applinks\":{}}".utf8)
            let now = Date(timeIntervalSince1970: 1_795_316_508.123456)
            let row = try #require(try db.firstRow(
                "SELECT $1::bigint AS i, $2::text AS s, $3::boolean AS b, $4::float8 AS d, $5::timestamptz AS t, $6::bytea AS bytes, $7::text AS missing",
                Int.max, "bücher.example ✓", true, 0.1, now, bytes, String?.none))
            #expect(try row.decode("i", as: Int.self) == Int.max)
            #expect(try row.decode("s", as: String.self) == "bücher.example ✓")
            #expect(try row.decode("b", as: Bool.self))
            #expect(try row.decode("d", as: Double.self) == 0.1)
            #expect(try row.decode("t", as: Date.self).timeIntervalSince1970 == now.timeIntervalSince1970)
            #expect(try row.decode("bytes", as: [UInt8].self) == bytes)
            #expect(try row.decode("missing", as: String?.self) == nil)
            #expect(throws: DatabaseError.self) { try row.decode("missing", as: String.self) }
            #expect(throws: DatabaseError.self) { try row.decode("nope", as: String.self) }
        }
    }

    @Test func timestampsReadTheSameInAnyServerTimeZone() throws {
        try TestPostgres.withDatabase(migrated: false) { db in
            try db.withConnection { connection in
                try connection.execute("SET TimeZone TO 'Asia/Kolkata'")
                let date: Date = try connection.value("SELECT '2026-11-22 03:01:48.25+00'::timestamptz")
                #expect(date.timeIntervalSince1970 == 1_795_316_508.25)
            }
        }
    }

    @Test func serverErrorsCarrySQLStateAndConstraint() throws {
        try TestPostgres.withDatabase { db in
            try db.execute("INSERT INTO settings (key, value) VALUES ($1, $2)", "k", "1")
            do {
                try db.execute("INSERT INTO settings (key, value) VALUES ($1, $2)", "k", "2")
                Issue.record("a duplicate key was accepted")
            } catch let error as DatabaseError {
                #expect(error.isUniqueViolation)
                #expect(error.sqlState == "23505")
                #expect(!error.isConnectionProblem)
                if case .server(let server) = error { #expect(server.constraint == "settings_pkey") }
            }
            #expect(throws: DatabaseError.self) { try db.execute("SELECT * FROM no_such_table") }
            // The pool still works after errors.
            let count: Int = try db.value("SELECT count(*) FROM settings")
            #expect(count == 1)
        }
    }

    @Test func transactionsCommitOrRollBack() throws {
        try TestPostgres.withDatabase { db in
            try db.withTransaction { tx in
                try tx.execute("INSERT INTO settings (key, value) VALUES ($1, $2)", "kept", "1")
            }
            struct Abort: Error {}
            #expect(throws: Abort.self) {
                try db.withTransaction { tx in
                    try tx.execute("INSERT INTO settings (key, value) VALUES ($1, $2)", "dropped", "1")
                    throw Abort()
                }
            }
            #expect(throws: DatabaseError.self) {
                try db.withTransaction { tx in
                    try tx.execute("INSERT INTO settings (key, value) VALUES ($1, $2)", "also-dropped", "1")
                    try tx.execute("INSERT INTO settings (key, value) VALUES ($1, $2)", "kept", "duplicate")
                }
            }
            let keys = try db.rows("SELECT key FROM settings ORDER BY key").map { try $0.decode(0, as: String.self) }
            #expect(keys == ["kept"])
            #expect(db.poolCounts.open <= db.poolSize)
        }
    }

    @Test func poolServesManyThreadsWithinItsSize() throws {
        try TestPostgres.withDatabase(poolSize: 3) { db in
            try db.execute("CREATE TABLE IF NOT EXISTS hits (n integer)")
            DispatchQueue.concurrentPerform(iterations: 40) { index in
                _ = try? db.execute("INSERT INTO hits (n) SELECT $1 FROM pg_sleep(0.005)", index)
            }
            let count: Int = try db.value("SELECT count(*) FROM hits")
            #expect(count == 40)
            #expect(db.poolCounts.open <= 3)
            let sessions: Int = try db.value("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()")
            #expect(sessions <= 3)
        }
    }

    @Test func listenerReceivesNotificationsAndTimesOut() throws {
        try TestPostgres.withDatabase(migrated: false) { db in
            let listener = db.makeListener()
            defer { listener.close() }
            try listener.listen("check_now")
            #expect(listener.wait(timeout: .milliseconds(50)) == .timedOut)
            try db.notify(channel: "check_now", payload: "example.com")
            guard case .notifications(let received) = listener.wait(timeout: .seconds(60)) else {
                Issue.record("no notification arrived")
                return
            }
            #expect(received.map(\.payload) == ["example.com"])
            #expect(received.first?.channel == "check_now")
            // Notifications sent inside a transaction arrive at commit only.
            try db.withTransaction { tx in try tx.notify(channel: "check_now", payload: "in-tx") }
            guard case .notifications(let second) = listener.wait(timeout: .seconds(60)) else {
                Issue.record("no notification after commit")
                return
            }
            #expect(second.map(\.payload) == ["in-tx"])
            #expect(throws: DatabaseError.self) { try listener.listen("Robert'); DROP TABLE x") }
        }
    }

    @Test func listenerReconnectsAfterItsSessionIsKilled() throws {
        try TestPostgres.withDatabase(migrated: false) { db in
            let listener = db.makeListener()
            defer { listener.close() }
            try listener.listen("wake")
            try db.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()",
                           "aasa-monitor listener")
            // The next waits see the broken session, reconnect, and listen again.
            var wakes: [NotificationListener.Wake] = []
            let deadline = ContinuousClock.now + .seconds(60)
            while !wakes.contains(.reconnected) && ContinuousClock.now < deadline {
                wakes.append(listener.wait(timeout: .milliseconds(200)))
            }
            #expect(wakes.contains(.reconnected))
            try db.notify(channel: "wake", payload: "again")
            guard case .notifications(let received) = listener.wait(timeout: .seconds(60)) else {
                Issue.record("no notification after the reconnect")
                return
            }
            #expect(received.map(\.payload) == ["again"])
        }
    }

    @Test func pooledConnectionKilledByTheServerIsReplaced() throws {
        try TestPostgres.withDatabase(migrated: false, poolSize: 1) { db in
            let first: Int = try db.value("SELECT pg_backend_pid()")
            let admin = try Connection(configuration: db.configuration)
            defer { admin.close() }
            try admin.execute("SELECT pg_terminate_backend($1)", first)
            // Wait until the server has really ended that session.
            let deadline = ContinuousClock.now + .seconds(60)
            while try admin.value("SELECT count(*) FROM pg_stat_activity WHERE pid = $1", first, as: Int.self) > 0,
                  ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.02)
            }
            let second: Int = try db.value("SELECT pg_backend_pid()")
            #expect(second != first)
        }
    }
}
