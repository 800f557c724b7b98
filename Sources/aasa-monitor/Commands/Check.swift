import AASA
import ArgumentParser
import AssetLinks
import Fetch
import Foundation
import Monitor
import Vocabulary
import WebAuthn

extension AASAMonitor {
    /// `aasa-monitor check DOMAIN`: one full check of both platforms, as a CI job runs it after a deploy.
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check one domain now, for Apple and Android: the files at the origin, Apple's CDN, Google's verdict.",
            discussion: """
                Apple: fetches https://DOMAIN/.well-known/apple-app-site-association (and the legacy root location) the \
                way Apple's CDN does — HTTPS only, no redirects — asks Apple's CDN for its copy, and validates the file. \
                With --mode, as a device in that mode: directly, following an https redirect, without the CDN.
                Android: fetches https://DOMAIN/.well-known/assetlinks.json as Google's fetcher (GoogleAssociationService), \
                compares a browser's answer, follows includes, and asks Google's Digital Asset Links API. A domain that \
                serves no assetlinks.json is not failing for Android unless --package expects an app, or --platform android \
                asks for Android alone (as a domain watched for Android only is judged: its file is required).
                --fingerprint applies to every --package (one Android app per run, as a CI job checks it).
                --passkeys: DOMAIN is a WebAuthn RP ID; fetches https://DOMAIN/.well-known/webauthn as a browser does \
                (no credentials, https redirects only, 256 KiB, 10 s), reads its related origins and the labels they spend \
                (at most 5), and checks /.well-known/passkey-endpoints and /.well-known/change-password. Web only: \
                no Apple or Android check, so --platform, --mode, --app-id and --package do not apply.
                Exit status: the worse of the two platforms — 0 pass, 1 warnings or deprecations, 2 errors, \
                3 could not check (DNS, network, refused address; an error wins over it).
                """)

        @Argument(help: "The domain, Unicode or Punycode; *.example.com checks example.com.")
        var domain: String

        @Flag(help: "Print the report as JSON.")
        var json = false

        @Flag(inversion: .prefixedNo, help: "Ask Apple's CDN for its copy.")
        var cdn = true

        @Option(help: "Check only this platform (apple or android); default both.")
        var platform: Platform?

        @Option(help: ArgumentHelp("Apple: the entitlement's ?mode= (developer, managed, developer+managed). Devices in that mode fetch the file directly, not through Apple's CDN, and follow an https redirect: the check does the same and does not ask the CDN.",
                                   valueName: "MODE"))
        var mode: EntitlementMode?

        @Option(name: .customLong("app-id"), help: ArgumentHelp("Apple: an app ID (TEAMID.bundle.id) the file must list for applinks; repeatable.",
                                                                valueName: "APP_ID"))
        var appIDs: [String] = []

        @Flag(help: "Check DOMAIN as a WebAuthn RP ID on the web: its related-origins file and passkey endpoints.")
        var passkeys = false

        @OptionGroup(title: "Android apps")
        var android: AndroidAppOptions

        @OptionGroup(title: "Outbound")
        var fetch: FetchOptions

        func validate() throws {
            // An RP ID is judged by WebAuthn's rules in `checkPasskeys` (its refusals name the RP ID's mistakes).
            if !passkeys {
                do {
                    _ = try HostName(domain)
                } catch {
                    throw ValidationError(String(describing: error))
                }
            }
            _ = try apps()
            _ = try android.expectations()
            if platform == .apple, !android.packages.isEmpty { throw ValidationError("--package is an Android expectation; drop --platform apple.") }
            if platform == .android, !appIDs.isEmpty { throw ValidationError("--app-id is an Apple expectation; drop --platform android.") }
            if platform == .android, mode != nil { throw ValidationError("--mode is an Apple entitlement's; drop --platform android.") }
            if passkeys, platform != nil || mode != nil || !appIDs.isEmpty || !android.packages.isEmpty {
                throw ValidationError("--passkeys checks the web files alone; drop --platform, --mode, --app-id and --package.")
            }
        }

        func apps() throws -> [AppID] {
            var apps: [AppID] = []
            for text in appIDs {
                do { apps.append(try AppID(typed: text)) } catch { throw ValidationError("--app-id \(text): \(error.message)") }
            }
            return apps
        }

        func run() async throws {
            if passkeys { return try await checkPasskeys() }
            let host: HostName
            do { host = try HostName(domain) } catch { throw ValidationError(String(describing: error)) }
            var configuration = try fetch.configuration()
            configuration.checkCDN = cdn && mode == nil
            let applePlan: PlatformPlan = mode == nil ? .everything : .everythingDirect
            let fetcher: Fetcher
            do { fetcher = try Fetcher(configuration) } catch { throw ValidationError(String(describing: error)) }
            let expected = try android.expectations()
            var apple: AppleCheck?
            var androidCheck: AndroidCheck?
            switch platform {
            case .apple?: apple = await fetcher.check(host, plan: applePlan)
            // Android alone: its file is required, as for a domain watched for Android only (the pipeline's rule).
            case .android?: androidCheck = await fetcher.checkAndroid(host, expectations: expected, fileRequired: true)
            case nil:
                let both = await fetcher.checkPlatforms(host, android: expected, apple: applePlan)
                apple = both.apple
                androidCheck = both.android
            }
            fetcher.shutdown()
            if var check = apple {
                check.report = Self.requiring(try apps(), in: check.report, url: check.wellKnown.url)
                apple = check
            }
            if json {
                Terminal.print(TerminalText(json: try CheckOutput.json(apple: apple, android: androidCheck)))
            } else {
                if let apple { Terminal.print(CheckOutput.text(apple), terminator: "") }
                if let androidCheck {
                    if apple != nil { Terminal.print("") }
                    Terminal.print(AndroidCheckOutput.text(androidCheck), terminator: "")
                }
            }
            throw ExitCode(CheckExitStatus.worst([apple?.report.exitStatus, androidCheck?.report.exitStatus].compactMap { $0 }))
        }

        /// `--passkeys`: the web check of DOMAIN as an RP ID; exits with its status.
        func checkPasskeys() async throws {
            let rules = try WebAuthnOutput.rules(command: "check")
            let rpID: RelyingPartyID
            do { rpID = try RelyingPartyID(domain, rules: rules) } catch { throw ValidationError(error.description) }
            let fetcher: Fetcher
            do { fetcher = try Fetcher(try fetch.configuration()) } catch { throw ValidationError(String(describing: error)) }
            let check = await fetcher.checkPasskeys(rpID, rules: rules)
            fetcher.shutdown()
            if json {
                Terminal.print(TerminalText(json: try CheckOutput.json(apple: nil, android: nil, web: check)))
            } else {
                Terminal.print(WebAuthnCheckOutput.text(check), terminator: "")
            }
            throw ExitCode(check.evaluation.exitStatus)
        }

        /// An Associated Domains entitlement's `?mode=` (aasa-spec.md §3.3): each takes the direct route.
        enum EntitlementMode: String, ExpressibleByArgument, CaseIterable {
            case developer, managed
            case developerAndManaged = "developer+managed"
        }

        /// `--app-id`: each must be listed for applinks in the file devices read (the entitlement check's code).
        static func requiring(_ apps: [AppID], in report: CheckReport, url: String) -> CheckReport {
            guard !apps.isEmpty, !report.couldNotCheck else { return report }
            let results = ExpectationEvaluation.evaluate(Expectations(appIDs: [.applinks: apps.map(\.description)]), document: report.document)
            var report = report
            for missing in results.missingAppIDs[.applinks] ?? [] {
                report.findings.insert(FindingDefinition.entitlementAppNotInFile.finding(at: nil,
                    "\(missing) is not listed for applinks in \(url); its Universal Links do not open the app.",
                    hint: "Add it to applinks.details[].appIDs."), at: 0)
            }
            report.verdict = Verdict(findings: report.findings)
            return report
        }
    }
}
