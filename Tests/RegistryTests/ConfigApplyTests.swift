import ConfigFile
import Foundation
import Registry
import Store
import Testing
import TestSupport
import Vocabulary

/// Config as code on a real PostgreSQL: apply, plan, prune, export, and refusals that change nothing.
@Suite struct ConfigApplyTests {
    static let app = "ABCDE12345.com.example.app"
    static let secret = "whsec_" + Data(repeating: 7, count: 32).base64EncodedString()
    static let slackURL = "https://hooks.slack.example/services/T0/B0/XYZsecret"
    static let environment = ["HOOK_SECRET": secret, "SLACK_URL": slackURL]

    static let file = """
        domains:
          - host: example.com
            interval_minutes: 15
            app_ids:
              applinks: [\(app)]
            watched_urls:
              - url: https://example.com/products/1
                expect: \(app)
              - url: https://example.com/help
                expect: browser
          - host: Bücher.example
        channels:
          - name: ops-mail
            kind: email
            to: ops@example.com
            min_severity: warning
            domains: [example.com]
          - name: hook
            kind: webhook
            url: https://hooks.example.net/aasa
            secret: ${HOOK_SECRET}
          - name: chat
            kind: slack
            url: ${SLACK_URL}
            enabled: false
        """

    static func document(_ text: String, environment: [String: String] = environment) throws -> ConfigDocument {
        try ConfigReader.read(Array(text.utf8), environment: environment).get()
    }

    @Test func applyAddsEverythingAndTheSecondApplyChangesNothing() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let registry = DomainRegistry(store: db)
            let plan = try registry.apply(try Self.document(Self.file))
            #expect(plan.applied && plan.count(.add) == 5 && plan.count(.change) == 0)
            let domain = try #require(try db.domain(host: "example.com"))
            #expect(domain.intervalSeconds == 900 && domain.checkRequestedAt != nil)
            #expect(try db.appIDExpectations(domainID: domain.id) == [AppIDExpectation(service: .applinks, appID: Self.app)])
            #expect(try db.watchedURLs(domainID: domain.id).count == 2)
            #expect(try db.domain(host: "xn--bcher-kva.example")?.intervalSeconds == 3600, "no interval: the instance default")

            let channels = try db.channels()
            #expect(channels.map(\.name) == ["ops-mail", "hook", "chat"])
            #expect(channels[0].domainIDs == [domain.id] && channels[0].minSeverity == .warning)
            #expect(channels[1].secret == Self.secret && channels[1].secretTemplate == "${HOOK_SECRET}")
            #expect(channels[2].target == Self.slackURL && channels[2].targetTemplate == "${SLACK_URL}" && !channels[2].enabled)

            let again = try registry.apply(try Self.document(Self.file))
            #expect(again.isEmpty, "\(again.steps)")
        }
    }

    @Test func applyExportApplyIsANoOpAndTheExportHoldsNoSecret() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let registry = DomainRegistry(store: db)
            try registry.apply(try Self.document(Self.file))
            let exported = try ConfigWriter.yaml(try registry.exportConfig())
            #expect(!exported.contains(Self.secret) && !exported.contains("XYZsecret"), "\(exported)")
            #expect(exported.contains("${HOOK_SECRET}") && exported.contains("${SLACK_URL}"))
            let plan = try registry.apply(try Self.document(exported), prune: true)
            #expect(plan.isEmpty, "\(plan.steps)")
            // And exporting again gives the same bytes: a diff in git shows only real changes.
            #expect(try ConfigWriter.yaml(try registry.exportConfig()) == exported)
        }
    }

    /// One bad entry among good ones: the whole file is refused with every problem by line, and
    /// the database is as it was.
    @Test func oneBadEntryRefusesTheWholeFile() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let registry = DomainRegistry(store: db)
            let text = """
                domains:
                  - host: good.example
                  - host: https://bad.example
                  - host: also-good.example
                    app_ids:
                      applinks: [abcde12345.com.x]
                channels:
                  - name: mail
                    kind: email
                    to: ops@example.com
                    domains: [nowhere.example]
                  - name: pager
                    kind: pagerduty-ish
                """
            #expect(throws: ConfigRefusal([
                ConfigProblem(line: 3, "https://bad.example: Enter the host name only, without \"https://\": Apple always fetches the file over https from the host itself."),
                ConfigProblem(line: 6, "also-good.example: The Team ID \"abcde12345\" must be upper-case: ABCDE12345"),
                ConfigProblem(line: 11, "mail: nowhere.example is neither declared in this file nor registered"),
                ConfigProblem(line: 13, "unknown channel kind \"pagerduty-ish\"; expected email, webhook, slack, pagerduty, opsgenie, teams, "
                              + "discord, google-chat, mattermost, telegram, ntfy, custom-webhook"),
            ])) { try registry.apply(try Self.document(text)) }
            #expect(try db.allDomains().isEmpty && db.channels().isEmpty)
        }
    }

    @Test func secretsMustComeFromTheEnvironment() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let registry = DomainRegistry(store: db)
            let literal = "channels:\n  - name: h\n    kind: webhook\n    url: https://h.example/\n    secret: \(Self.secret)\n"
            #expect(throws: ConfigRefusal([ConfigProblem(line: 5, "h: write the secret as ${NAME} and set NAME in the environment, so it stays out of the file (and out of git)")])) {
                try registry.apply(try Self.document(literal))
            }
            let missing = "channels:\n  - name: h\n    kind: webhook\n    url: https://h.example/\n"
            #expect(throws: ConfigRefusal([ConfigProblem(line: 2, "h: a new webhook channel needs secret: ${NAME}, a whsec_ signing secret from the environment")])) {
                try registry.apply(try Self.document(missing))
            }
            let notWhsec = "channels:\n  - name: h\n    kind: webhook\n    url: https://h.example/\n    secret: ${NOT_WHSEC}\n"
            #expect(throws: ConfigRefusal([ConfigProblem(line: 5, "h: the secret from ${NOT_WHSEC} is not a whsec_ secret (whsec_ followed by the base64 of 24 to 64 random bytes)")])) {
                try registry.apply(try Self.document(notWhsec, environment: ["NOT_WHSEC": "hunter2"]))
            }
            // A bad Slack URL from the environment is refused without repeating it.
            let badSlack = "channels:\n  - name: s\n    kind: slack\n    url: ${SLACK_URL}\n"
            do {
                try registry.apply(try Self.document(badSlack, environment: ["SLACK_URL": "ftp://leaky.example/T0/sekret"]))
                Issue.record("a bad URL was accepted")
            } catch let refusal as ConfigRefusal {
                #expect(!refusal.description.contains("sekret"), "\(refusal)")
            }
            #expect(try db.channels().isEmpty)
        }
    }

    /// `alerts:` sets the instance's thresholds and retry interval (issue #31): planned field by field,
    /// exported when they differ from the defaults and applied back unchanged; a value out of range
    /// refuses the file on its line and changes nothing.
    @Test func alertsSetTheThresholdsAndExportAndApplyBack() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let registry = DomainRegistry(store: db)
            #expect(try registry.exportConfig().alerts == nil, "the defaults are not written")
            let file = """
                alerts:
                  failure_threshold: 3
                  retry_minutes: 2
                """
            let planned = try registry.apply(try Self.document(file), dryRun: true)
            #expect(planned.steps == [ConfigPlan.Step(action: .change, subject: .settings("alerts"),
                                                      details: ["failure_threshold: 2 → 3", "retry_minutes: 1 → 2"])])
            #expect(try db.alertTuning() == .defaults, "a dry run writes nothing")
            #expect(try registry.apply(try Self.document(file)).applied)
            #expect(try db.alertTuning() == AlertTuning(failureThreshold: 3, successThreshold: 1, retryMinutes: 2))
            #expect(try registry.apply(try Self.document(file)).isEmpty, "applied twice: nothing to change")

            let exported = try ConfigWriter.yaml(try registry.exportConfig())
            #expect(exported.contains("alerts:\n  failure_threshold: 3\n  success_threshold: 1\n  retry_minutes: 2\n"), "\(exported)")
            #expect(try registry.apply(try Self.document(exported)).isEmpty)

            let refused = """
                alerts:
                  failure_threshold: 0
                  success_threshold: 11
                """
            #expect(throws: ConfigRefusal.self) { try registry.apply(try Self.document(refused)) }
            do {
                _ = try registry.apply(try Self.document(refused))
            } catch let refusal as ConfigRefusal {
                #expect(refusal.problems.map(\.description) == [
                    "line 2: alerts: Failing checks before an alert: from 1 to 10.",
                    "line 3: alerts: Passing checks before it resolves: from 1 to 10.",
                ])
            }
            #expect(try db.alertTuning() == AlertTuning(failureThreshold: 3, successThreshold: 1, retryMinutes: 2))
            #expect(throws: ConfigRefusal.self) { try Self.document("alerts:\n  retry_minutes: soon\n") }
        }
    }

    @Test func dryRunPlansAndWritesNothing() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let registry = DomainRegistry(store: db)
            let plan = try registry.apply(try Self.document(Self.file), dryRun: true)
            #expect(!plan.applied && plan.count(.add) == 5)
            #expect(plan.steps.first == ConfigPlan.Step(action: .add, subject: .domain("example.com"), details: [
                "interval_minutes: 15", "app_ids.applinks: \(Self.app)",
                "watched_urls: https://example.com/products/1 (expect \(Self.app))", "watched_urls: https://example.com/help (expect browser)",
            ]))
            let shown = plan.steps.flatMap(\.details).joined(separator: "\n")
            #expect(!shown.contains(Self.secret) && !shown.contains("XYZsecret"), "\(shown)")
            #expect(try db.allDomains().isEmpty && db.channels().isEmpty)
        }
    }

    @Test func changesArePlannedFieldByFieldAndPruneRemovesOnlyManagedLists() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let registry = DomainRegistry(store: db)
            try registry.apply(try Self.document(Self.file))
            let byHand = try registry.register(Registration(host: "by-hand.example", intervalMinutes: 60))
            let changed = Self.file
                .replacingOccurrences(of: "interval_minutes: 15", with: "interval_minutes: 60")
                .replacingOccurrences(of: "expect: browser", with: "expect: \(Self.app)")
                .replacingOccurrences(of: "min_severity: warning", with: "min_severity: critical")
                .replacingOccurrences(of: "enabled: false", with: "enabled: true")
            let plan = try registry.apply(try Self.document(changed))
            #expect(plan.steps == [
                .init(action: .change, subject: .domain("example.com"), details: [
                    "interval_minutes: 15 → 60",
                    "+ watched_urls: https://example.com/help (expect \(Self.app))",
                    "- watched_urls: https://example.com/help (expect browser)",
                ]),
                .init(action: .change, subject: .channel("ops-mail"), details: ["min_severity: warning → critical"]),
                .init(action: .change, subject: .channel("chat"), details: ["enabled: false → true"]),
            ])
            #expect(plan.keptDomains == ["by-hand.example"])

            // Without a channels list the file does not manage channels: --prune leaves them.
            let onlyDomains = "domains:\n  - host: example.com\n"
            let pruned = try registry.apply(try Self.document(onlyDomains), prune: true)
            #expect(pruned.steps.filter { $0.action == .remove }.map(\.subject) == [.domain("by-hand.example"), .domain("bücher.example")], "by ASCII host: xn--bcher-kva.example")
            #expect(try db.domain(id: byHand) == nil && db.channels().count == 3)
            #expect(pruned.keptChannels.isEmpty, "channels are not the file's business here, so not listed as kept either")
        }
    }

    /// What an app put on a domain stays the app's: applying a file that declares the domain with
    /// other expectations neither plans to remove it nor removes it, and export leaves it out.
    @Test func expectationsAppsPutOnDomainsAreLeftToTheApps() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let registry = DomainRegistry(store: db)
            let appID = "ZYXWV98765.com.other.app"
            try AppRegistry(store: db).register(AppRegistration(appleAppIDs: [appID], appleDomains: ["applinks:example.com"],
                                                                   watchedURLs: ["https://example.com/app-only"]))
            let file = "domains:\n  - host: example.com\n    interval_minutes: 60\n    app_ids:\n      applinks: [\(Self.app)]\n"
            let plan = try registry.apply(try Self.document(file))
            #expect(plan.steps == [.init(action: .change, subject: .domain("example.com"), details: ["+ app_ids.applinks: \(Self.app)"])])
            let domain = try #require(try db.domain(host: "example.com"))
            #expect(Set(try db.appIDExpectations(domainID: domain.id).map(\.appID)) == [appID, Self.app])
            #expect(try db.watchedURLs(domainID: domain.id) == [WatchedURLExpectation(url: "https://example.com/app-only", expectedAppID: appID)])
            #expect(try registry.apply(try Self.document(file)).isEmpty)
            let exported = try registry.exportConfig()
            #expect(exported.domains.first?.appIDs == [.init(service: "applinks", appID: Self.app)])
            #expect(exported.domains.first?.watchedURLs == [])
        }
    }

    static let appsFile = """
        domains:
          - host: example.com
            interval_minutes: 15
        apps:
          - name: Example
            apple_app_ids: [\(app)]
            apple_domains: ["applinks:example.com", "webcredentials:*.example.org?mode=developer"]
            android_package: com.example.app
            fingerprints:
              - "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
              - fingerprint: "AA:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
                role: upload
            android_hosts: [example.com]
            watched_urls: [https://example.com/products/1]
        channels:
          - name: mail
            kind: email
            to: ops@example.com
            domains: ["*.example.org"]
        """

    /// Apps in the file: registered by the app form's rules with the domains they claim; the domains
    /// an app claims count as declared (never pruned); apply → export → apply changes nothing.
    @Test func appsAreDeclaredRoundTripAndProtectTheirDomains() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let registry = DomainRegistry(store: db)
            let plan = try registry.apply(try Self.document(Self.appsFile), prune: true)
            #expect(plan.steps.map(\.subject) == [.domain("example.com"), .app("Example"), .channel("mail")], "\(plan.steps)")
            #expect(plan.steps[1].details.contains("registers *.example.org"), "\(plan.steps[1].details)")
            let app = try #require(try db.app(name: "Example"))
            #expect(app.appleAppIDs == [Self.app] && app.androidPackage == "com.example.app" && app.fingerprints.count == 2)
            let org = try #require(try db.domainID(host: "example.org", wildcard: true))
            #expect(try db.channels().first?.domainIDs == [org], "routed to the domain the app registered in the same apply")
            let example = try #require(try db.domain(host: "example.com"))
            #expect(example.intervalSeconds == 900)
            #expect(try db.appIDExpectations(domainID: example.id) == [AppIDExpectation(service: .applinks, appID: Self.app)])

            #expect(try registry.apply(try Self.document(Self.appsFile), prune: true).isEmpty)
            let exported = try ConfigWriter.yaml(try registry.exportConfig())
            let again = try registry.apply(try Self.document(exported), prune: true)
            #expect(again.isEmpty, "\(again.steps)\n\(exported)")

            // An app changed: one ID more, one link fewer; the plan says so field by field.
            let changed = Self.appsFile.replacingOccurrences(of: "apple_app_ids: [\(Self.app)]", with: "apple_app_ids: [\(Self.app), \(Self.app).beta]")
                .replacingOccurrences(of: ", \"webcredentials:*.example.org?mode=developer\"", with: "")
                .replacingOccurrences(of: "domains: [\"*.example.org\"]", with: "domains: [example.com]")
            let step = try registry.apply(try Self.document(changed), dryRun: true).steps.first { $0.subject == .app("Example") }
            #expect(step?.details == ["apple_app_ids: \(Self.app) → \(Self.app), \(Self.app).beta",
                                      "- link: apple webcredentials *.example.org (developer mode)"], "\(String(describing: step))")

            // Without the app in the file, --prune takes it away (its domains stay until the
            // domains list leaves them out too).
            let noApps = "domains:\n  - host: example.com\n    interval_minutes: 15\napps: []\n"
            let pruned = try registry.apply(try Self.document(noApps), prune: true)
            #expect(pruned.steps.filter { $0.action == .remove }.map(\.subject) == [.domain("*.example.org"), .app("Example")], "\(pruned.steps)")
            #expect(try db.app(name: "Example") == nil)
        }
    }

    @Test func aBadAppRefusesTheFileWithItsLine() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let text = "apps:\n  - name: Bad\n    apple_app_ids: [lower.case]\n    apple_domains: [\"applinks:ok.example\", \"maps:x.example\"]\n"
            do {
                try DomainRegistry(store: db).apply(try Self.document(text))
                Issue.record("a bad app was accepted")
            } catch let refusal as ConfigRefusal {
                #expect(refusal.problems.map(\.line) == [3, 4], "\(refusal)")
                #expect(refusal.problems.allSatisfy { $0.message.hasPrefix("Bad: ") })
            }
            #expect(try db.apps().isEmpty && db.allDomains().isEmpty)
        }
    }

    /// The on-call kinds: credentials only as references (and never shown), a provider's API when no
    /// url is given, Telegram's chat id, the custom webhook's template; apply → export → apply is a no-op.
    @Test func onCallChannelsRoundTripWithTheirCredentialsOutOfTheFile() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let registry = DomainRegistry(store: db)
            let environment = ["PD_KEY": "R0UTINGKEYR0UTINGKEYR0UTINGKEY12", "TG_TOKEN": "123456789:AAbbCCddEEffGGhh",
                               "TEAMS_URL": "https://teams.example/workflows/abc?sig=s3cr3t", "HOOK_SECRET": Self.secret]
            let file = """
                channels:
                  - name: pager
                    kind: pagerduty
                    routing_key: ${PD_KEY}
                    min_severity: critical
                  - name: bot
                    kind: telegram
                    bot_token: ${TG_TOKEN}
                    chat_id: "-1001234567890"
                  - name: teams
                    kind: teams
                    url: ${TEAMS_URL}
                  - name: custom
                    kind: custom-webhook
                    url: https://hooks.example.net/custom
                    secret: ${HOOK_SECRET}
                    template: '{"text": "{{title}}"}'
                """
            let plan = try registry.apply(try Self.document(file, environment: environment))
            #expect(plan.count(.add) == 4)
            let shown = plan.steps.flatMap(\.details).joined(separator: "\n")
            for secret in environment.values { #expect(!shown.contains(secret), "\(shown)") }
            #expect(shown.contains("url: https://events.pagerduty.com (the provider's)"), "\(shown)")
            let channels = try db.channels()
            #expect(channels.first { $0.name == "pager" }?.secret == environment["PD_KEY"])
            #expect(channels.first { $0.name == "bot" }?.recipient == "-1001234567890")
            #expect(channels.first { $0.name == "custom" }?.bodyTemplate == #"{"text": "{{title}}"}"#)

            let exported = try ConfigWriter.yaml(try registry.exportConfig())
            for secret in environment.values { #expect(!exported.contains(secret), "\(exported)") }
            #expect(exported.contains("routing_key: ${PD_KEY}") && exported.contains("bot_token: ${TG_TOKEN}"), "\(exported)")
            #expect(try registry.apply(try Self.document(exported, environment: environment), prune: true).isEmpty)

            let literal = "channels:\n  - name: p2\n    kind: opsgenie\n    api_key: plain-text-key\n"
            #expect(throws: ConfigRefusal([ConfigProblem(line: 4, "p2: write the api_key as ${NAME} and set NAME in the environment, so it stays out of the file (and out of git)")])) {
                try registry.apply(try Self.document(literal))
            }
            let missing = "channels:\n  - name: p3\n    kind: pagerduty\n"
            #expect(throws: ConfigRefusal([ConfigProblem(line: 2, "p3: a new pagerduty channel needs routing_key: ${NAME}, its routing key from the environment")])) {
                try registry.apply(try Self.document(missing))
            }
        }
    }

    /// A channel made by hand without a name is taken over by the file's entry of the same kind and
    /// target, not duplicated; exporting names it kind-id until then.
    @Test func unnamedChannelsAreAdopted() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let registry = DomainRegistry(store: db)
            let made = try db.createChannel(NewChannel(kind: .email, target: "ops@example.com"))
            let exported = try registry.exportConfig()
            #expect(exported.channels.map(\.name) == ["email-\(made.id)"])
            let plan = try registry.apply(try Self.document("channels:\n  - name: ops\n    kind: email\n    to: ops@example.com\n"))
            #expect(plan.steps == [.init(action: .change, subject: .channel("ops"), details: ["name: (none) → ops", "to is now written in the file"])])
            #expect(try db.channels().map(\.id) == [made.id])
        }
    }
}

/// The README points at docs/aasa-monitor.example.yaml: it must stay a file apply accepts.
@Suite struct ConfigExampleFileTests {
    @Test func theDocumentedExampleApplies() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/aasa-monitor.example.yaml")
        let bytes = try [UInt8](Data(contentsOf: path))
        let environment = ["AASA_WEBHOOK_SECRET": ConfigApplyTests.secret, "SLACK_WEBHOOK_URL": ConfigApplyTests.slackURL,
                           "PAGERDUTY_ROUTING_KEY": "R0UTINGKEYR0UTINGKEYR0UTINGKEY12"]
        let document = try ConfigReader.read(bytes, environment: environment).get()
        try TestPostgres.withDatabase { (db: Database) throws in
            let plan = try DomainRegistry(store: db).apply(document)
            #expect(plan.count(.add) == 8, "\(plan.steps)")
            #expect(try DomainRegistry(store: db).apply(document).isEmpty)
        }
    }

}

extension ConfigApplyTests {
    /// Two applies of different files at once: the advisory lock makes the second plan against what
    /// the first committed, so the result is one file applied after the other, never a mix.
    @Test func concurrentAppliesOfTwoFilesAreSerialised() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let a = try Self.document("""
                domains:
                  - host: a1.example
                  - host: shared.example
                    interval_minutes: 15
                channels:
                  - name: mail-a
                    kind: email
                    to: a@example.com
                    domains: [a1.example]
                """)
            let b = try Self.document("""
                domains:
                  - host: b1.example
                  - host: b2.example
                  - host: shared.example
                    interval_minutes: 360
                channels:
                  - name: mail-b
                    kind: email
                    to: b@example.com
                    domains: [b2.example, shared.example]
                """)
            final class Results: @unchecked Sendable {
                let lock = NSLock()
                var plans: [String: ConfigPlan] = [:]
                var errors: [String] = []
            }
            let results = Results()
            let files = [("a", a), ("b", b)]
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                do {
                    let plan = try DomainRegistry(store: db).apply(files[i].1, prune: true)
                    results.lock.withLock { results.plans[files[i].0] = plan }
                } catch {
                    results.lock.withLock { results.errors.append("\(error)") }
                }
            }
            #expect(results.errors.isEmpty, "\(results.errors)")
            let hosts = Set(try db.allDomains().map(\.host)), channels = try db.channels().map(\.name)
            // Whichever came second planned against the first's result: it removes what only the first declared.
            let (last, first) = hosts.contains("b1.example") ? ("b", "a") : ("a", "b")
            let lastPlan = try #require(results.plans[last]), firstPlan = try #require(results.plans[first])
            #expect(firstPlan.count(.remove) == 0 && firstPlan.count(.change) == 0)
            if last == "b" {
                #expect(hosts == ["b1.example", "b2.example", "shared.example"] && channels == ["mail-b"])
                #expect(try db.domain(host: "shared.example")?.intervalSeconds == 21600)
                #expect(lastPlan.steps.contains(.init(action: .remove, subject: .domain("a1.example"), details: ["with its history of checks and alerts"])))
                #expect(lastPlan.steps.contains(.init(action: .change, subject: .domain("shared.example"), details: ["interval_minutes: 15 → 360"])))
            } else {
                #expect(hosts == ["a1.example", "shared.example"] && channels == ["mail-a"])
                #expect(try db.domain(host: "shared.example")?.intervalSeconds == 900)
                #expect(lastPlan.steps.contains(.init(action: .remove, subject: .domain("b1.example"), details: ["with its history of checks and alerts"])))
                #expect(lastPlan.steps.contains(.init(action: .change, subject: .domain("shared.example"), details: ["interval_minutes: 360 → 15"])))
            }
            #expect(lastPlan.steps.contains { $0.action == .remove && $0.subject == .channel(last == "b" ? "mail-a" : "mail-b") })
            // Applying the last file again changes nothing: the database says exactly what it says.
            #expect(try DomainRegistry(store: db).apply(last == "b" ? b : a, prune: true, dryRun: true).isEmpty)
        }
    }

    /// Channels routed to apps: planned by name, applied, exported and applied again as a no-op; an
    /// app that is nowhere refuses the file with the line.
    @Test func channelsRouteToAppsByName() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let registry = DomainRegistry(store: db)
            let file = """
                apps:
                  - name: Shop
                    apple_app_ids: [\(Self.app)]
                    apple_domains: ["applinks:shop.example"]
                channels:
                  - name: shop-team
                    kind: email
                    to: shop@example.com
                    apps: [Shop]
                """
            let plan = try registry.apply(try Self.document(file))
            #expect(plan.steps.last == .init(action: .add, subject: .channel("shop-team"),
                                             details: ["kind: email", "to: shop@example.com", "min_severity: info", "domains: all", "apps: Shop"]))
            let shop = try #require(try db.app(name: "Shop"))
            #expect(try db.channels().first?.appIDs == [shop.id])
            let exported = try ConfigWriter.yaml(try registry.exportConfig())
            #expect(exported.contains("  to: shop@example.com\n  min_severity: info\n  apps:\n  - Shop\n"), "\(exported)")
            #expect(try registry.apply(try Self.document(exported)).isEmpty)

            let unrouted = file.replacingOccurrences(of: "\n    apps: [Shop]", with: "")
            #expect(try registry.apply(try Self.document(unrouted)).steps == [.init(action: .change, subject: .channel("shop-team"),
                                                                                   details: ["apps: Shop → (none)"])])
            #expect(try db.channels().first?.appIDs == [])
            #expect(throws: ConfigRefusal([ConfigProblem(line: 9, "shop-team: no app is named \"Nowhere\" in this file or the database")])) {
                try registry.apply(try Self.document(file.replacingOccurrences(of: "[Shop]", with: "[Nowhere]")))
            }
        }
    }

    /// A domain's own Android apps and a watched URL's Android outcome: applied as the form would
    /// store them, planned by package, refused with their lines, and export → apply changes nothing.
    @Test func androidAppsAndOverridesApplyExportAndApplyAgain() throws {
        let key = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
        let upload = String(repeating: "AB:", count: 31) + "AB"
        let file = """
            domains:
              - host: shop.example
                platforms: android
                watched_urls:
                  - url: https://shop.example/p/1
                    expect: browser
                    android: com.example.shop
                  - url: https://shop.example/help
                    expect: browser
                    android: nothing
                android_apps:
                  - package: com.example.shop
                    fingerprints: [\(key.replacingOccurrences(of: ":", with: "").lowercased())]
                  - package: com.example.shop.lite
                    fingerprints:
                      - "\(key)"
                      - "\(upload)"
            """
        try TestPostgres.withDatabase { (db: Database) throws in
            let registry = DomainRegistry(store: db)
            let plan = try registry.apply(try Self.document(file))
            #expect(plan.steps.first?.details.contains("android_apps: com.example.shop (14:6D:E9:83…)") == true, "\(plan.steps)")
            let domain = try #require(try db.domain(host: "shop.example"))
            #expect(try db.androidAppExpectations(domainID: domain.id) == [
                AndroidAppExpectation(packageName: "com.example.shop", fingerprints: [key]),
                AndroidAppExpectation(packageName: "com.example.shop.lite", fingerprints: [upload, key].sorted()),
            ])
            #expect(try db.watchedURLs(domainID: domain.id).map(\.android) == [.opensPackage("com.example.shop"), .opensNothing])
            #expect(try registry.apply(try Self.document(file)).isEmpty, "the same file again changes nothing")

            let exported = try ConfigWriter.yaml(try registry.exportConfig())
            #expect(exported.contains("android_apps:") && exported.contains("package: com.example.shop.lite") && exported.contains("android: nothing"),
                    "\(exported)")
            let again = try registry.apply(try Self.document(exported), prune: true)
            #expect(again.isEmpty, "\(again.steps)")
            #expect(try ConfigWriter.yaml(try registry.exportConfig()) == exported)

            // A key rotated and an app dropped: planned by package, written as the file says.
            let rotated = """
                domains:
                  - host: shop.example
                    platforms: android
                    watched_urls:
                      - {url: "https://shop.example/p/1", expect: browser, android: com.example.shop}
                      - {url: "https://shop.example/help", expect: browser, android: nothing}
                    android_apps:
                      - package: com.example.shop.lite
                        fingerprints: "\(key)"
                """
            let change = try registry.apply(try Self.document(rotated))
            #expect(change.steps.map(\.details) == [[
                "android_apps: com.example.shop.lite (14:6D:E9:83…, 2 keys) → com.example.shop.lite (14:6D:E9:83…)",
                "- android_apps: com.example.shop (14:6D:E9:83…)",
            ]], "\(change.steps)")
            #expect(try db.androidAppExpectations(domainID: domain.id) == [AndroidAppExpectation(packageName: "com.example.shop.lite", fingerprints: [key])])

            // The form's rules, each problem on its line; nothing changes.
            let bad = """
                domains:
                  - host: shop.example
                    android_apps:
                      - package: com
                        fingerprints: [\(key)]
                      - package: com.example.b
                        fingerprints:
                          - \(String(repeating: "AB:", count: 19))AB
                """
            #expect(throws: ConfigRefusal.self) { try registry.apply(try Self.document(bad)) }
            do {
                try registry.apply(try Self.document(bad))
            } catch let refusal as ConfigRefusal {
                let shown = refusal.problems.map(\.description)
                #expect(shown.contains { $0.hasPrefix("line 4: shop.example: \"com\" has one segment") }, "\(shown)")
                #expect(shown.contains { $0.hasPrefix("line 8: shop.example: ") && $0.contains("SHA-1") }, "\(shown)")
            }
            #expect(try db.androidAppExpectations(domainID: domain.id).count == 1)

            // Upload keys: stored among the fingerprints and marked, exported once under upload_keys.
            let withUpload = rotated + "\n        upload_keys: [\"\(upload)\"]\n"
            #expect(!(try registry.apply(try Self.document(withUpload))).isEmpty)
            #expect(try db.androidAppExpectations(domainID: domain.id) == [
                AndroidAppExpectation(packageName: "com.example.shop.lite", fingerprints: [key, upload].sorted(), uploadKeys: [upload])])
            let uploadExport = try ConfigWriter.yaml(try registry.exportConfig())
            #expect(uploadExport.components(separatedBy: upload).count == 2 && uploadExport.contains("upload_keys:"), "\(uploadExport)")
            #expect(try registry.apply(try Self.document(uploadExport), prune: true).isEmpty)
        }
    }
}
