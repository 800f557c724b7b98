@testable import ConfigFile
import Testing
import Vocabulary

@Suite struct ConfigReaderTests {
    static let example = """
        version: 1
        domains:
          - host: example.com
            interval_minutes: 15
            badge: true
            app_ids:
              applinks: [ABCDE12345.com.example.app]
              webcredentials:
                - ABCDE12345.com.example.app
            watched_urls:
              - url: https://example.com/products/1
                expect: ABCDE12345.com.example.app
              - url: https://example.com/help
                expect: browser
          - host: "*.shop.example"
        channels:
          - name: ops-mail
            kind: email
            to: ops@example.com
            min_severity: warning
            domains: [example.com]
          - name: pager
            kind: webhook
            url: https://hooks.example.com/aasa?token=${HOOK_TOKEN}
            secret: ${HOOK_SECRET}
            enabled: false
        """

    static func read(_ text: String, environment: [String: String] = [:]) -> Result<ConfigDocument, ConfigRefusal> {
        ConfigReader.read(Array(text.utf8), environment: environment)
    }

    static func problems(_ text: String, environment: [String: String] = [:]) -> [String] {
        switch read(text, environment: environment) {
        case .success: []
        case .failure(let refusal): refusal.problems.map(\.description)
        }
    }

    @Test func readsEveryFieldWithItsLine() throws {
        let document = try Self.read(Self.example, environment: ["HOOK_TOKEN": "t0k", "HOOK_SECRET": "whsec_abc"]).get()
        #expect(document.sections == [.domains, .channels])
        #expect(document.domains.count == 2)
        let d = document.domains[0]
        #expect(d.host == "example.com" && d.intervalMinutes == 15 && d.badge == true)
        #expect(d.appIDs == [.init(service: "applinks", appID: "ABCDE12345.com.example.app"),
                             .init(service: "webcredentials", appID: "ABCDE12345.com.example.app")])
        #expect(d.lines.appIDs == [7, 9] && d.lines.services == [7, 8])
        #expect(d.watchedURLs == [.init(url: "https://example.com/products/1", expect: "ABCDE12345.com.example.app"),
                                  .init(url: "https://example.com/help", expect: "browser")])
        #expect(d.lines.watchedURLs == [11, 13] && d.lines.expectations == [12, 14])
        #expect(document.domains[1].host == "*.shop.example" && document.domains[1].intervalMinutes == nil && document.domains[1].badge == nil)

        let mail = document.channels[0]
        #expect(mail.name == "ops-mail" && mail.kind == "email" && mail.minSeverity == .warning && mail.domains == ["example.com"])
        #expect(mail.setting("to")?.value == "ops@example.com" && mail.setting("to")?.isReference == false)
        let hook = document.channels[1]
        #expect(!hook.enabled && hook.minSeverity == .info)
        #expect(hook.setting("url")?.value == "https://hooks.example.com/aasa?token=t0k")
        #expect(hook.setting("url")?.template == "https://hooks.example.com/aasa?token=${HOOK_TOKEN}")
        #expect(hook.setting("secret")?.value == "whsec_abc" && hook.setting("secret")?.references == ["HOOK_SECRET"])
        #expect(hook.lines.settings["secret"] == 25)
    }

    @Test func anEmptyFileDeclaresNothing() throws {
        #expect(try Self.read("").get() == ConfigDocument())
        #expect(try Self.read("# only a comment\n").get() == ConfigDocument())
        // A named but empty list is managed (with --prune, everything in it goes).
        #expect(try Self.read("domains:\nchannels: []\n").get().sections == [.domains, .channels])
    }

    @Test func everyProblemIsReportedWithItsLine() {
        let text = """
            domains:
              - host: good.example
              - host: bad.example
                interval_minutes: soon
                watched_url: []
              - interval_minutes: 5
              - host: good.example
            channels:
              - name: a
                kind: webhook
                url: ${NOT_SET}
                min_severity: loud
              - kind: email
              - name: a
                kind: email
                enabled: yes
            colour: blue
            """
        #expect(Self.problems(text) == [
            "line 4: interval_minutes must be a whole number of minutes, not \"soon\"",
            "line 5: unknown key \"watched_url\" in a domain; expected host, interval_minutes, badge, platforms, paused, app_ids, watched_urls, android_apps",
            "line 6: a domain needs host:",
            "line 7: good.example is declared twice (first on line 2)",
            "line 11: url: the environment variable NOT_SET is not set",
            "line 12: min_severity must be critical, warning or info, not \"loud\"",
            "line 13: a channel needs name: (its identity across applies)",
            "line 16: enabled must be true or false, not \"yes\"",
            "line 17: unknown key \"colour\" in the file; expected version, domains, apps, channels, alerts",
        ])
    }

    /// Found by a long fuzz run (a misspelt service): refused with its line, so it is never
    /// regrouped on export.
    @Test func unknownServicesAreRefused() {
        #expect(Self.problems("domains:\n  - host: a.example\n    app_ids:\n      alppinks: [ABCDE12345.com.example.a]\n")
            == ["line 4: unknown service \"alppinks\" in app_ids; expected applinks, webcredentials, appclips, activitycontinuation"])
    }

    @Test func repeatedKeysAndWrongShapesAreRefused() {
        // Yams' composer finds these first (the walker's own check stays for keys Yams would miss).
        #expect(Self.problems("domains:\n  - host: a.example\n    host: b.example\n")
            == ["line 2: \"host\" appears more than once in the same mapping"])
        #expect(Self.problems("domains: example.com\n") == ["line 1: domains must be a list (lines starting with \"- \")"])
        #expect(Self.problems("- a\n- b\n") == ["line 1: the file must be a mapping (key: value lines)"])
        #expect(Self.problems("domains:\n  - host: [a, b]\n") == ["line 2: host must be a single value, not a list or mapping"])
        #expect(Self.problems("domains:\n  - host: ~\n") == ["line 2: host has no value"])
        #expect(Self.problems("version: 2\n") == ["line 1: version 2 is not known; this program reads version 1"])
        #expect(Self.problems("domains:\n  - host: a.example\n    watched_urls:\n      - url: https://a.example/\n")
            == ["line 4: a watched URL needs expect: an app ID that must open it, or browser"])
    }

    @Test func syntaxErrorsNameTheLine() {
        let problems = Self.problems("domains:\n  - host: a.example\n   bad indentation: [\n")
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("line 3: not valid YAML") == true, "\(problems)")
    }

    @Test func bytesThatAreNotTextAreRefused() {
        guard case .failure(let nul) = ConfigReader.read(Array("domains:\n  - host: a\0b\n".utf8), environment: [:]) else {
            Issue.record("a NUL byte was read")
            return
        }
        #expect(nul.problems == [ConfigProblem(line: 2, "the file contains a NUL byte; a config file is text")])
        guard case .failure(let latin1) = ConfigReader.read(Array("a: b\nc: d\n".utf8) + [0xE9], environment: [:]) else {
            Issue.record("invalid UTF-8 was read")
            return
        }
        #expect(latin1.problems == [ConfigProblem(line: 3, "the file is not UTF-8 text")])
    }

    /// Aliases: a 1,000-entry list named 2,000 times stands for two million values in 25 kB. The
    /// reader never descends into shapes the schema does not have (so nested aliases cost nothing),
    /// and stops at its budget of values read.
    @Test func aliasesCannotExpandWithoutBound() {
        var text = "domains:\n  - host: a.example\n    app_ids:\n      s0: &a [" + Array(repeating: "x", count: 1000).joined(separator: ", ") + "]\n"
        for i in 1...2000 { text += "      s\(i): *a\n" }
        let problems = Self.problems(text)
        #expect(problems.contains { $0.contains("expands to more than") }, "\(problems.prefix(3))")
    }

    /// The review's 401-byte bomb (issue #30), also the config-file fuzz target's seed: eight levels
    /// of ten-fold aliased lists, the last used as a mapping key. Yams hashes a key whole to find
    /// duplicates, so composing it took 16 s (×10 per level) before the value budget above could
    /// act. The key scan refuses it before anything is composed, reading each event once.
    static let aliasKeyBomb: String = {
        var lines = ["l0: &l0 [x, x, x, x, x, x, x, x, x, x]"]
        for level in 1...7 {
            lines.append("l\(level): &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ",") + "]")
        }
        return (lines + ["? *l7", ": *l0"]).joined(separator: "\n") + "\n"
    }()

    @Test func anAliasAsAKeyIsRefusedBeforeComposing() {
        let bytes = Array(Self.aliasKeyBomb.utf8)
        #expect(bytes.count == 401)
        #expect(Self.problems(Self.aliasKeyBomb) == ["line 9: a key must be a plain word, not an alias (*name); write the key itself"])
        // The scan's own count: it stops at the key, having read fewer events than the file has
        // bytes, where composing would have hashed 10^8 values.
        let scan = KeyScan.scan(bytes)
        #expect(scan.problem?.line == 9)
        #expect(scan.events > 0 && scan.events < bytes.count, "\(scan.events) events for \(bytes.count) bytes")
    }

    @Test func aListOrMappingAsAKeyIsRefusedWithItsLine() {
        #expect(Self.problems("version: 1\n? [a, b]\n: x\n") == ["line 2: a key must be a plain word, not a list or mapping"])
        #expect(Self.problems("version: 1\ndomains:\n  - {? {host: a}: b}\n") == ["line 3: a key must be a plain word, not a list or mapping"])
        #expect(Self.problems("a: &k key\ndomains:\n  - *k : b\n") == ["line 3: a key must be a plain word, not an alias (*name); write the key itself"])
        // Aliases as values are still read (and counted against the value budget).
        let scan = KeyScan.scan(Array("a: &x [1, 2]\nb: *x\nc: {d: *x}\n".utf8))
        #expect(scan.problem == nil)
        // A syntax error ends the scan quietly: composing reports it in Yams' words, as before.
        #expect(KeyScan.scan(Array("a: [\n".utf8)).problem == nil)
        #expect(Self.problems("a: [\n").first?.hasPrefix("line ") == true)
    }

    @Test func environmentReferences() throws {
        let env = ["A": "1", "EMPTY": ""]
        #expect(try ConfigText(resolving: "x${A}y$${A}$z$", environment: env).value == "x1y${A}$z$")
        #expect(try ConfigText(resolving: "${A}${A}", environment: env).references == ["A", "A"])
        #expect(throws: ConfigTextError.unset("B")) { try ConfigText(resolving: "${B}", environment: env) }
        #expect(throws: ConfigTextError.empty("EMPTY")) { try ConfigText(resolving: "${EMPTY}", environment: env) }
        #expect(throws: ConfigTextError.self) { try ConfigText(resolving: "${A", environment: env) }
        #expect(throws: ConfigTextError.self) { try ConfigText(resolving: "${1A}", environment: env) }
        #expect(ConfigText(literal: "a${b}").template == "a$${b}")
        #expect(try ConfigText(resolving: ConfigText(literal: "a${b}").template, environment: [:]).value == "a${b}")
    }
}
