import AASA
import AppManifests
import AssetLinks
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
            abstract: "Check every domain an app's entitlements and Android manifest claim, now: a release gate for CI.",
            discussion: """
                Apple (--entitlements): reads the Associated Domains entitlement, checks each domain as `check` does (the \
                file at the origin, Apple's CDN), and that each service's file lists the app and each --url opens it. \
                ?mode=developer domains are checked against the origin only.
                Android (--manifest): checks the assetlinks.json of every host of an android:autoVerify="true" intent filter \
                as Google's fetcher sees it, that it verifies --package (default: the manifest's package) with every \
                --fingerprint, Google's verdict, and that each --url on a verified host opens the app on Android 15+.
                A CDN copy (Apple's) or Google's copy that merely lags the origin passes unless --strict-cdn.
                Exit status: 0 pass, 1 warnings, 2 errors, 3 could not check (and no errors).
                """)

        @Option(help: ArgumentHelp("The app's .entitlements (XML or binary plist), a built app's entitlements, or the associated-domains array (plist or JSON); - for stdin.",
                                   valueName: "FILE"))
        var entitlements: String?

        @Option(help: ArgumentHelp("The app's AndroidManifest.xml (the merged one names the package); - for stdin.", valueName: "FILE"))
        var manifest: String?

        @OptionGroup(title: "Android apps")
        var android: AndroidAppOptions

        @Option(name: .customLong("app-id"), help: ArgumentHelp(
            "An app ID (TEAMID.bundle.id) each file must list; repeatable. Default: the entitlements' application-identifier.",
            valueName: "APP_ID"))
        var appIDs: [String] = []

        @Option(name: .customLong("url"), help: ArgumentHelp("A URL that must open the app; repeatable.", valueName: "URL"))
        var urls: [String] = []

        @Option(name: .customLong("device-state"), help: ArgumentHelp(
            "The output of adb shell pm get-app-links PACKAGE from a test device (Android 12+); a host it does not show as verified is a device-not-verified warning; - for stdin.",
            valueName: "FILE"))
        var deviceState: String?

        @Flag(help: "Fail when Apple's CDN or Google's API serves an older file than the origin (default: report it, pass).")
        var strictCDN = false

        @Flag(help: "Print the report as JSON.")
        var json = false

        @Option(help: ArgumentHelp("Also write a JUnit XML report (one test case per domain × service and per URL).", valueName: "FILE"))
        var junit: String?

        @OptionGroup(title: "Outbound")
        var fetch: FetchOptions

        /// The reasons quote the file, which anyone may have written: each line is escaped for the terminal.
        static func refused(_ path: String, _ refusal: ManifestRefusal) -> ExitCode {
            stop([path + " is refused:"] + refusal.problems.map { "  " + $0.description })
        }

        /// A problem `run` finds in what it was given (a file refused, an app ID missing): said on
        /// standard error with exit 64, like a usage error, but without a usage line. A ValidationError
        /// thrown from `run` prints the top-level command's usage, which says nothing about the file.
        static func stop(_ lines: [String]) -> ExitCode {
            Terminal.printError(TerminalText(lines: ["error: " + (lines.first ?? "")] + lines.dropFirst()))
            return ExitCode(64)
        }

        static func stop(_ message: String) -> ExitCode { stop([message]) }

        func validate() throws {
            if entitlements == nil, manifest == nil {
                throw ValidationError("Give --entitlements (Apple), --manifest (Android), or both.")
            }
            if entitlements == nil, !appIDs.isEmpty { throw ValidationError("--app-id goes with --entitlements.") }
            if manifest == nil, !android.packages.isEmpty { throw ValidationError("--package goes with --manifest.") }
            if manifest == nil, deviceState != nil { throw ValidationError("--device-state goes with --manifest.") }
            if [entitlements, manifest, deviceState].filter({ $0 == "-" }).count > 1 {
                throw ValidationError("Only one of --entitlements, --manifest and --device-state can be read from stdin.")
            }
        }

        func run() async throws {
            let (declared, apps) = try readEntitlements()
            let androidApp = try readManifest()
            for url in urls where !(url.hasPrefix("https://") || url.hasPrefix("http://")) {
                throw Self.stop("--url \(url): give an http(s) URL, e.g. https://example.com/products/1.")
            }
            let hosts = try Self.hostNames(declared)
            let fetcher: Fetcher
            do { fetcher = try Fetcher(try fetch.configuration()) } catch { throw Self.stop(String(describing: error)) }
            let checks = await Self.checkApple(hosts, declared: declared, on: fetcher)
            var androidChecks: [String: ReleaseGate.AndroidHostCheck] = [:]
            if let androidApp { androidChecks = try await Self.checkAndroid(androidApp.manifest, expecting: androidApp.apps, on: fetcher) }
            fetcher.shutdown()
            var report = ReleaseGate.evaluate(entitlements: declared, appIDs: apps, urls: entitlements == nil ? [] : urls,
                                              checks: checks, strictCDN: strictCDN)
            if let androidApp {
                report.packages = androidApp.apps.map(\.packageName)
                report.signingKeysNotChecked = androidApp.apps.filter(\.fingerprints.isEmpty).map(\.packageName)
                // The device's own word, when given: read leniently (lines it does not know are skipped).
                let device = try deviceState.map { DeviceLinkStates.read(String(decoding: try InputFile.read($0), as: UTF8.self)) }
                report.cases += ReleaseGate.evaluateAndroid(manifest: androidApp.manifest, apps: androidApp.apps, urls: urls, checks: androidChecks,
                                                            reportUnclaimed: entitlements == nil, strictGoogle: strictCDN, device: device)
            }
            try output(report)
            throw ExitCode(report.exitStatus)
        }

        /// The entitlements' domains and the app IDs their files must list (--app-id, else the
        /// entitlements' own); nothing when no --entitlements.
        private func readEntitlements() throws -> (AppleEntitlements, [AppID]) {
            guard let entitlements else { return (AppleEntitlements(domains: [], appIDs: []), []) }
            let declared: AppleEntitlements
            do {
                declared = try EntitlementsReader.read(try InputFile.read(entitlements))
            } catch let refusal as ManifestRefusal {
                throw Self.refused(entitlements, refusal)
            } catch {
                throw Self.stop(String(describing: error))
            }
            var apps: [AppID] = []
            for text in appIDs {
                do { apps.append(try AppID(typed: text)) } catch { throw Self.stop("--app-id \(text): \(error.message)") }
            }
            if apps.isEmpty { apps = declared.appIDs }
            guard !apps.isEmpty else {
                throw Self.stop("\(entitlements) names no application-identifier (Xcode adds it when it signs); pass --app-id TEAMID.bundle.id.")
            }
            return (declared, apps)
        }

        /// The manifest and the apps its hosts' files must verify (--package, else the manifest's own);
        /// nil when no --manifest.
        private func readManifest() throws -> (manifest: AndroidManifest, apps: [AndroidAppExpectation])? {
            guard let manifest else { return nil }
            let read: AndroidManifest
            do {
                read = try AndroidManifestReader.read(try InputFile.read(manifest))
            } catch let refusal as ManifestRefusal {
                throw Self.refused(manifest, refusal)
            } catch {
                throw Self.stop(String(describing: error))
            }
            let apps = try android.expectations(defaultPackage: read.package)
            guard !apps.isEmpty else {
                throw Self.stop("\(manifest) names no package (a source manifest leaves it to Gradle); pass --package com.example.app.")
            }
            return (read, apps)
        }

        /// Each host the entitlements name, as written there, with its validated name.
        private static func hostNames(_ declared: AppleEntitlements) throws -> [String: HostName] {
            var hosts: [String: HostName] = [:]
            for domain in declared.domains where hosts[domain.host] == nil {
                do { hosts[domain.host] = try HostName(domain.host) } catch {
                    throw Self.stop("\(domain.entitlement): \(error)")
                }
            }
            return hosts
        }

        /// Checks every Apple host at once; the checks keyed by the host as the entitlements write it.
        private static func checkApple(_ hosts: [String: HostName], declared: AppleEntitlements,
                                       on fetcher: Fetcher) async -> [String: ReleaseGate.HostCheck] {
            // A host every entry of which names an alternate mode is read by devices directly, which
            // follow an https redirect; any ordinary entry makes it the CDN's route (a redirect not followed).
            let directHosts = Set(hosts.compactMap { name, host in
                declared.domains.allSatisfy { $0.host != name || !$0.modes.isEmpty } ? host : nil
            })
            let results = CheckResults()
            await withTaskGroup(of: Void.self) { group in
                for host in Set(hosts.values) {
                    group.addTask { await results.add(await fetcher.check(host, plan: directHosts.contains(host) ? .everythingDirect : .everything)) }
                }
            }
            var checks: [String: ReleaseGate.HostCheck] = [:]
            let byASCII = await results.checks
            for (name, host) in hosts {
                if let check = byASCII[host.ascii] {
                    checks[name] = ReleaseGate.HostCheck(report: check.report,
                                                         seconds: check.finishedAt.timeIntervalSince(check.startedAt))
                }
            }
            return checks
        }

        /// Checks the assetlinks.json of every verified host of the manifest at once, keyed by the host as written there.
        private static func checkAndroid(_ manifest: AndroidManifest, expecting expected: [AndroidAppExpectation],
                                         on fetcher: Fetcher) async throws -> [String: ReleaseGate.AndroidHostCheck] {
            var androidHosts: [(String, HostName)] = []
            for host in manifest.verifiedHosts {
                do { androidHosts.append((host.description, try HostName(host.description))) } catch {
                    throw Self.stop("\(host.description): \(error)")
                }
            }
            return await withTaskGroup(of: (String, ReleaseGate.AndroidHostCheck).self) { group in
                for (name, host) in androidHosts {
                    group.addTask {
                        let check = await fetcher.checkAndroid(host, expectations: expected)
                        return (name, ReleaseGate.AndroidHostCheck(report: check.report,
                                                                   seconds: check.finishedAt.timeIntervalSince(check.startedAt)))
                    }
                }
                var all: [String: ReleaseGate.AndroidHostCheck] = [:]
                for await (name, check) in group { all[name] = check }
                return all
            }
        }

        /// The JUnit file when asked for, then the report as text or JSON.
        private func output(_ report: GateReport) throws {
            if let junit {
                do {
                    try Data(JUnitReport.xml(report, timestamp: Date()).utf8).write(to: URL(fileURLWithPath: junit))
                } catch {
                    throw Self.stop("cannot write the JUnit report \(junit): \(error.localizedDescription)")
                }
            }
            if json {
                Terminal.print(TerminalText(json: try VerifyAppOutput.json(report)))
            } else {
                Terminal.print(VerifyAppOutput.text(report), terminator: "")
            }
        }
    }
}

/// Collects the checks as the fetcher completes them (in any order, from its tasks).
private actor CheckResults {
    var checks: [String: AppleCheck] = [:]
    func add(_ check: AppleCheck) { checks[check.host.ascii] = check }
}
