import ConfigFile
import Foundation
import Monitor
import Registry
import Store
import Testing
import TestSupport
import Vocabulary

/// The one way in, on a real PostgreSQL: what the form, the API and the CLI get from the registry.
@Suite struct DomainRegistryTests {
    static let app = "ABCDE12345.com.example.app"

    /// Each was accepted by `import` before it shared the form's rule, and refused by the form.
    static let formRefused = ["ABCDE12345.com.example_app", "ABCDE12345.com..app", "ABCDE12345.com.app.", "ABCDE12345.com.bücher"]

    @Test func everyRefusedFieldIsNamedAtOnce() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let registry = DomainRegistry(store: db)
            let registration = Registration(
                host: "https://example.com",
                appIDs: [.init(service: "applinks", appID: "abcde12345.com.x"), .init(service: "maps", appID: Self.app)],
                watchedURLs: [.init(url: "example.com/x", expect: "nobody")], intervalMinutes: 7)
            #expect(throws: RegistrationError.invalid([
                .host: "Enter the host name only, without \"https://\": Apple always fetches the file over https from the host itself.",
                .appID(0): "The Team ID \"abcde12345\" must be upper-case: ABCDE12345",
                .service(1): "Unknown service \"maps\"; use applinks, webcredentials, appclips or activitycontinuation.",
                .watchedURL(0): "Write the whole URL, starting with https://",
                .expectation(0): "Write an app ID or \"browser\". \"nobody\" has no dot: write the Team ID, a dot, then the bundle ID, e.g. ABCDE12345.com.example.app",
                .interval: "Choose one of the offered intervals.",
            ])) { try registry.register(registration) }
            #expect(try db.listDomains().isEmpty)
        }
    }

    @Test func registerRequestsTheFirstCheckAndWakesTheCrawlers() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let listener = db.makeListener()
            try listener.listen(DomainScheduler.checkNowChannel)
            let registry = DomainRegistry(store: db)
            try registry.setDefaultInterval(minutes: 15)
            let id = try registry.register(Registration(host: " Bücher.example ", appIDs: [.init(service: "webcredentials", appID: Self.app)],
                                                        watchedURLs: [.init(url: "https://bücher.example/a", expect: "browser")]))
            let domain = try #require(try db.domain(id: id))
            #expect(domain.host == "xn--bcher-kva.example" && domain.displayName == "bücher.example")
            #expect(domain.intervalSeconds == 900, "no interval given: the instance default")
            #expect(domain.checkRequestedAt != nil)
            #expect(try db.appIDExpectations(domainID: id) == [AppIDExpectation(service: .webcredentials, appID: Self.app)])
            #expect(try wakeUps(listener) == 1)
            #expect(throws: RegistrationError.alreadyRegistered(id: id, displayName: "bücher.example")) {
                try registry.register(Registration(host: "xn--bcher-kva.example", intervalMinutes: 60))
            }
        }
    }

    @Test func editKeepsTheHostAndReportsAMissingDomain() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let registry = DomainRegistry(store: db)
            let id = try registry.register(Registration(host: "edit.example", intervalMinutes: 60))
            try registry.edit(domainID: id, Registration(host: "ignored.example", appIDs: [.init(service: "applinks", appID: Self.app)],
                                                         intervalMinutes: 1440, badge: true))
            let domain = try #require(try db.domain(id: id))
            #expect(domain.host == "edit.example" && domain.intervalSeconds == 86400 && domain.badgeEnabled)
            #expect(try db.appIDExpectations(domainID: id).map(\.appID) == [Self.app])
            #expect(throws: RegistrationError.noSuchDomain) { try registry.edit(domainID: id + 1, Registration(host: "", intervalMinutes: 60)) }
            #expect(try registry.delete(domainID: id))
            #expect(try !registry.delete(domainID: id))
        }
    }

    /// The import and the form share one rule: every app ID the form refuses, the import refuses,
    /// and the line is not registered.
    @Test func importRefusesWhatTheFormRefuses() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let registry = DomainRegistry(store: db)
            for (i, appID) in Self.formRefused.enumerated() {
                #expect(throws: RegistrationError.self) {
                    try registry.register(Registration(host: "form\(i).example", appIDs: [.init(service: "applinks", appID: appID)],
                                                       intervalMinutes: 60))
                }
            }
            let lines = ["ok.example,\(Self.app)"] + Self.formRefused.enumerated().map { "bad\($0.offset).example,\($0.element)" }
                + ["ok.example", "*.Bücher.example", "http://x.example"]
            let report = try registry.importList(lines.joined(separator: "\n"))
            #expect(report.added == ["ok.example", "bücher.example"])
            #expect(report.skipped == ["ok.example"])
            #expect(report.refused.map(\.line) == [2, 3, 4, 5, 8])
            #expect(report.refused.prefix(4).allSatisfy { $0.reason.contains("is not an app ID: The bundle ID") })
            #expect(try db.listDomains().map(\.host).sorted() == ["ok.example", "xn--bcher-kva.example"])
            // Imported domains are not pushed ahead of what a person asked for.
            #expect(try db.domain(host: "ok.example")?.checkRequestedAt == nil)
        }
    }

    /// A mass import: 2,000 domains registered at once are due spread over their interval at the
    /// latest (by host, roughly uniform: a backlog the workers cannot take within an interval is spread
    /// over it), none requested, every one queued for its first check; "check now" on one of them
    /// leases it at once, ahead of the queue.
    @Test func anImportSpreadsFirstChecksOverTheInterval() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let registry = DomainRegistry(store: db)
            let count = 2000
            let before = Date()
            let report = try registry.importList((0..<count).map { "tenant\($0).platform.example" }.joined(separator: "\n"))
            #expect(report.added.count == count)
            let waits: [Double] = try db.rows(
                "SELECT extract(epoch FROM next_check_at)::float8 FROM domains WHERE check_requested_at IS NULL")
                .map { try $0.decode(0) - before.timeIntervalSince1970 }
            #expect(waits.count == count)
            // The default interval is an hour: every first check within it, ~200 in each tenth.
            #expect(waits.allSatisfy { $0 >= -1 && $0 < 3600 + 60 }, "\(waits.min() ?? 0) … \(waits.max() ?? 0)")
            var tenths = [Int](repeating: 0, count: 10)
            for wait in waits { tenths[min(max(Int(wait / 360), 0), 9)] += 1 }
            #expect(tenths.allSatisfy { $0 > 130 && $0 < 270 }, "\(tenths)")
            let dueNow: Int = try db.value("SELECT count(*)::int FROM domains WHERE next_check_at <= now() + interval '10 seconds'")
            #expect(dueNow < 20, "\(dueNow) of \(count) due at once")
            #expect(try db.value("SELECT count(*)::int FROM domains WHERE first_check_queued_at IS NOT NULL", as: Int.self) == count)
            // "Check now" is still immediate.
            _ = try registry.requestCheck(hosts: ["tenant7.platform.example"])
            let leased = try db.leaseDueDomains(limit: 10, lease: .seconds(60), worker: "test")
            #expect(leased.map(\.host.ascii).contains("tenant7.platform.example"))
            #expect(leased.first { $0.host.ascii == "tenant7.platform.example" }?.requested == true)
        }
    }

    /// Imports that start at once (issue #31): every imported domain can be leased at once, though its
    /// place in the interval is an hour away, in the file's order (oldest first), and only with the room
    /// that requested and due domains leave, so an import never takes a due check's turn.
    @Test func anImportsFirstChecksAreLeasedAtOnceOldestFirstAfterDueOnes() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let registry = DomainRegistry(store: db)
            // Routine work the import must not pass: a domain checked before and due now.
            guard case .added(let routine) = try db.importDomain(host: "routine.example", displayName: "routine.example",
                                                                 wildcard: false, appIDs: []) else { throw Failure("not added") }
            try db.execute("UPDATE domains SET last_checked_at = now() - interval '1 hour', next_check_at = now() - interval '1 second' WHERE id = $1",
                           routine)
            // The file's order is not the hosts' order, so oldest first cannot pass as alphabetical.
            let file = (0..<50).reversed().map { "tenant\($0).platform.example" }
            #expect(try registry.importList(file.joined(separator: "\n")).added.count == 50)
            // Each place in the interval is somewhere in the coming hour; none falls due during the test.
            try db.execute("UPDATE domains SET next_check_at = now() + interval '1 hour' WHERE host LIKE 'tenant%'")
            _ = try registry.requestCheck(hosts: ["tenant7.platform.example"])
            let queue = file.filter { $0 != "tenant7.platform.example" }

            // Which domains a claim takes is the order (a claim's rows come back in no particular order).
            func why(_ leased: [LeasedDomain]) -> [String: String] {
                Dictionary(uniqueKeysWithValues: leased.map { ($0.host.ascii, $0.requested ? "requested" : $0.queued ? "queued" : "due") })
            }
            let first = try db.leaseDueDomains(limit: 10, lease: .seconds(60), worker: "test")
            var expected = ["tenant7.platform.example": "requested", "routine.example": "due"]
            for host in queue.prefix(8) { expected[host] = "queued" }
            #expect(why(first) == expected)
            let rest = try db.leaseDueDomains(limit: 100, lease: .seconds(60), worker: "test")
            #expect(why(rest) == Dictionary(uniqueKeysWithValues: queue.dropFirst(8).map { ($0, "queued") }))
            #expect(try db.value("SELECT count(*)::int FROM domains WHERE first_check_queued_at IS NOT NULL", as: Int.self) == 0)
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    @Test func checkNowByHostName() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let registry = DomainRegistry(store: db)
            let id = try registry.register(Registration(host: "bücher.example", intervalMinutes: 60))
            try db.execute("UPDATE domains SET check_requested_at = NULL WHERE id = $1", id)
            let request = try registry.requestCheck(hosts: ["BÜCHER.example", "other.example", "not a host"])
            #expect(request.requested == ["xn--bcher-kva.example"])
            #expect(request.notRegistered == ["other.example"])
            #expect(request.refused.map(\.input) == ["not a host"])
            #expect(try db.domain(id: id)?.checkRequestedAt != nil)
        }
    }

    /// A paused domain asked for by name is not flagged and is said to be paused, not "requested":
    /// nothing checks it until it is resumed.
    @Test func checkNowByHostNameSaysAPausedDomainIsPaused() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let registry = DomainRegistry(store: db)
            let paused = try registry.register(Registration(host: "paused.example", intervalMinutes: 60))
            _ = try registry.register(Registration(host: "running.example", intervalMinutes: 60))
            #expect(try registry.setPaused(domainID: paused, true))
            try db.execute("UPDATE domains SET check_requested_at = NULL")
            let request = try registry.requestCheck(hosts: ["paused.example", "running.example"])
            #expect(request.requested == ["running.example"])
            #expect(request.paused == ["paused.example"])
            #expect(request.notRegistered.isEmpty)
            #expect(try db.domain(id: paused)?.checkRequestedAt == nil)
        }
    }

    /// Switching a domain from Android only to both platforms (or any other change of platforms) queues
    /// its check at once, as "check now" does, so Apple's side appears without waiting for the interval;
    /// an edit that keeps the platforms requests nothing.
    @Test func aPlatformSwitchRequestsACheckAndWakesTheCrawlers() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let registry = DomainRegistry(store: db)
            let id = try registry.register(Registration(host: "switch.example", intervalMinutes: 1440, platforms: "android"))
            // Its first check ran: nothing requested, the next one a day away.
            try db.execute("UPDATE domains SET check_requested_at = NULL, next_check_at = now() + interval '1 day' WHERE id = $1", id)
            try registry.edit(domainID: id, Registration(host: "", intervalMinutes: 1440, badge: true))
            #expect(try db.domain(id: id)?.checkRequestedAt == nil, "the same platforms: no check requested")
            let listener = db.makeListener()
            try listener.listen(DomainScheduler.checkNowChannel)
            try registry.edit(domainID: id, Registration(host: "", intervalMinutes: 1440, platforms: "both"))
            #expect(try db.domain(id: id)?.platforms == .both)
            #expect(try db.domain(id: id)?.checkRequestedAt != nil)
            #expect(try wakeUps(listener) == 1)
            let leased = try db.leaseDueDomains(limit: 10, lease: .seconds(60), worker: "test")
            #expect(leased.map(\.id) == [id] && leased.first?.platforms == .both, "leased now, for both platforms")
        }
    }

    /// A config file that switches a domain's platforms requests its check and wakes the crawlers, as
    /// the form and the API do (`edit`); an apply that keeps them requests nothing.
    @Test func aPlatformSwitchByTheConfigFileRequestsACheckToo() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let registry = DomainRegistry(store: db)
            func apply(_ platforms: String) throws {
                let text = "version: 1\ndomains:\n  - host: switch.example\n    interval_minutes: 1440\n    platforms: \(platforms)\n"
                _ = try registry.apply(try ConfigReader.read(Array(text.utf8), environment: [:]).get())
            }
            try apply("android")
            let id = try #require(try db.domain(host: "switch.example")?.id)
            try db.execute("UPDATE domains SET check_requested_at = NULL, next_check_at = now() + interval '1 day' WHERE id = $1", id)
            try apply("android")
            #expect(try db.domain(id: id)?.checkRequestedAt == nil, "the same platforms: no check requested")
            let listener = db.makeListener()
            try listener.listen(DomainScheduler.checkNowChannel)
            try apply("both")
            #expect(try db.domain(id: id)?.platforms == .both)
            #expect(try db.domain(id: id)?.checkRequestedAt != nil)
            #expect(try wakeUps(listener) == 1)
        }
    }

    func wakeUps(_ listener: NotificationListener) throws -> Int {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if case .notifications(let list) = listener.wait(timeout: deadline - ContinuousClock.now) {
                let wakes = list.filter { $0.channel == DomainScheduler.checkNowChannel }
                if !wakes.isEmpty { return wakes.count }
            }
        }
        return 0
    }

    /// A watched URL may state its Android outcome apart from Apple's: validated by the registry, kept
    /// in `watched_urls.expected_android` as one type, and what the pipeline expects on Android.
    @Test func aWatchedURLStatesItsAndroidOutcomeApart() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let registry = DomainRegistry(store: db)
            #expect(throws: RegistrationError.invalid([
                .androidExpectation(0): "Write the Android package the URL must open, or \"nothing\". \"shop\" has one segment; an application ID has at least two, e.g. com.example.app.",
            ])) {
                try registry.register(Registration(host: "shop.example", watchedURLs: [.init(url: "https://shop.example/a", expect: "browser", android: "shop")],
                                                   intervalMinutes: 60))
            }
            let id = try registry.register(Registration(host: "shop.example", watchedURLs: [
                .init(url: "https://shop.example/a", expect: "browser", android: " com.example.shop "),
                .init(url: "https://shop.example/b", expect: Self.app, android: "Nothing"),
                .init(url: "https://shop.example/c", expect: Self.app),
            ], intervalMinutes: 60))
            #expect(try db.watchedURLs(domainID: id).map(\.android) == [.opensPackage("com.example.shop"), .opensNothing, nil])
            #expect(try db.value("SELECT string_agg(coalesce(expected_android, '-'), ',' ORDER BY id) FROM watched_urls", as: String.self)
                    == "com.example.shop,nothing,-")
            let expectations = Expectations(rows: try db.expectations(domainIDs: [id]))
            #expect(expectations.watchedURLs.map(\.expected) == [.staysInBrowser, .opensApp(Self.app), .opensApp(Self.app)])
            // /c has no Android package to open (none expected): not judged on Android; the stated two are.
            #expect(expectations.androidWatchedURLs == [WatchedURL(url: "https://shop.example/a", expected: .opensApp("com.example.shop")),
                                                        WatchedURL(url: "https://shop.example/b", expected: .staysInBrowser)])
            // An edit without it goes back to the derived outcome.
            try registry.edit(domainID: id, Registration(host: "shop.example", watchedURLs: [.init(url: "https://shop.example/a", expect: "browser")],
                                                          intervalMinutes: 60))
            #expect(try db.watchedURLs(domainID: id).map(\.android) == [nil])
            #expect(AndroidURLExpectation(rawValue: "not a package") == nil && AndroidURLExpectation(rawValue: "nothing") == .opensNothing)
        }
    }
}
