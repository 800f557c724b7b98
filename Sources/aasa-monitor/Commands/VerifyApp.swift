import AASA
import AppManifests
import ArgumentParser
import Fetch
import Foundation
import Monitor
import Vocabulary

extension AASAMonitor {
    /// `aasa-monitor verify-app --entitlements App.entitlements`: a release gate for CI.
    struct VerifyApp: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify-app",
            abstract: "Check every domain an app's entitlements claim, now: a release gate for CI.",
            discussion: """
                Reads the Associated Domains entitlement, checks each domain as `check` does (the file at the origin, \
                Apple's CDN), and that each service's file lists the app and each --url opens it. ?mode=developer domains \
                are checked against the origin only. A CDN copy that merely lags the origin passes unless --strict-cdn.
                Exit status: 0 pass, 1 warnings, 2 errors, 3 could not check (and no errors).
                """)

        @Option(help: ArgumentHelp("The app's .entitlements (XML or binary plist), a built app's entitlements, or the associated-domains array (plist or JSON); - for stdin.",
                                   valueName: "FILE"))
        var entitlements: String

        @Option(name: .customLong("app-id"), help: ArgumentHelp(
            "An app ID (TEAMID.bundle.id) each file must list; repeatable. Default: the entitlements' application-identifier.",
            valueName: "APP_ID"))
        var appIDs: [String] = []

        @Option(name: .customLong("url"), help: ArgumentHelp("A URL that must open the app; repeatable.", valueName: "URL"))
        var urls: [String] = []

        @Flag(help: "Fail when Apple's CDN serves an older file than the origin (default: report it, pass).")
        var strictCDN = false

        @Flag(help: "Print the report as JSON.")
        var json = false

        @Option(help: ArgumentHelp("Also write a JUnit XML report (one test case per domain × service and per URL).", valueName: "FILE"))
        var junit: String?

        @OptionGroup(title: "Outbound")
        var fetch: FetchOptions

        func run() async throws {
            let declared: AppleEntitlements
            do {
                declared = try EntitlementsReader.read(try InputFile.read(entitlements))
            } catch let refusal as ManifestRefusal {
                // The reasons quote the file, which anyone may have written: escaped for the terminal.
                throw ValidationError(TerminalText.escape(entitlements) + " is refused:\n"
                                      + refusal.problems.map { "  " + TerminalText.escape($0.description) }.joined(separator: "\n"))
            } catch {
                throw ValidationError(String(describing: error))
            }
            var apps: [AppID] = []
            for text in appIDs {
                do { apps.append(try AppID(typed: text)) } catch { throw ValidationError("--app-id \(text): \(error.message)") }
            }
            if apps.isEmpty { apps = declared.appIDs }
            guard !apps.isEmpty else {
                throw ValidationError("\(entitlements) names no application-identifier (Xcode adds it when it signs); pass --app-id TEAMID.bundle.id.")
            }
            for url in urls where !(url.hasPrefix("https://") || url.hasPrefix("http://")) {
                throw ValidationError("--url \(url): give an http(s) URL, e.g. https://example.com/products/1.")
            }

            var hosts: [String: HostName] = [:]
            for domain in declared.domains where hosts[domain.host] == nil {
                do { hosts[domain.host] = try HostName(domain.host) } catch {
                    throw ValidationError(TerminalText.escape("\(domain.entitlement): \(error)"))
                }
            }
            let fetcher: Fetcher
            do { fetcher = try Fetcher(try fetch.configuration()) } catch { throw ValidationError(String(describing: error)) }
            let results = CheckResults()
            await fetcher.check(Set(hosts.values)) { check in
                await results.add(check)
            }
            fetcher.shutdown()
            var checks: [String: ReleaseGate.HostCheck] = [:]
            let byASCII = await results.checks
            for (name, host) in hosts {
                if let check = byASCII[host.ascii] {
                    checks[name] = ReleaseGate.HostCheck(report: check.report,
                                                         seconds: check.finishedAt.timeIntervalSince(check.startedAt))
                }
            }
            let report = ReleaseGate.evaluate(entitlements: declared, appIDs: apps, urls: urls, checks: checks,
                                              strictCDN: strictCDN)
            if let junit {
                do {
                    try Data(JUnitReport.xml(report, timestamp: Date()).utf8).write(to: URL(fileURLWithPath: junit))
                } catch {
                    throw ValidationError("cannot write the JUnit report \(junit): \(error.localizedDescription)")
                }
            }
            if json {
                Terminal.print(TerminalText(json: try VerifyAppOutput.json(report)))
            } else {
                Terminal.print(VerifyAppOutput.text(report), terminator: "")
            }
            throw ExitCode(report.exitStatus)
        }
    }
}

/// Collects the checks as the fetcher completes them (in any order, from its tasks).
private actor CheckResults {
    var checks: [String: DomainCheck] = [:]
    func add(_ check: DomainCheck) { checks[check.host.ascii] = check }
}
