import AASA
import ArgumentParser
import AssetLinks
import Foundation
import Vocabulary
import WebAuthn

extension AASAMonitor {
    /// `aasa-monitor match FILE URL [--app APPID] [--domain HOST] [--explain] [--json]` and `match --batch`;
    /// for assetlinks.json (detected by content) `match FILE URL [--package NAME] [--android-version N]`
    /// and `match --batch --android`; for the web's related-origins file
    /// `match --related-origins FILE --rp-id RP --origin ORIGIN` (passkeys-spec.md §3.2–3.4).
    /// Exit status: 0 the URL opens the app (or, without --app, some app; or the origin may use the RP ID);
    /// 1 it does not; 2 the file is not usable (browsers reject a related-origins file); 64 bad usage.
    /// `--batch` exits 0 whatever the lines say.
    struct Match: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show which app a URL opens under an apple-app-site-association or assetlinks.json file, and why.",
            discussion: """
                With --app, the decision for that app (match, exclude or no_match); without, every app the file \
                lists, in the order the system prefers them. --batch reads JSON lines \
                {"id": …, "aasa": {…}, "domain": "example.com", "app_id": "TEAMID.bundle", "url": "…"} on standard input \
                and writes {"id": …, "decision": "match" | "exclude" | "no_match"} (or "error") per line.
                An assetlinks.json (a top-level array) is decided for --package (or every package it names) on \
                Android 15+ dynamic rules, or on --android-version. --batch --android reads \
                {"id": …, "assetlinks": [...] or its text, "packageName": "…", "url": "…"} and writes \
                {"id": …, "decision": "match" | "exclude" | "no_match" | "rules_dropped"}.
                --related-origins FILE --rp-id RP --origin ORIGIN answers whether a browser lets ORIGIN use the RP ID \
                under that /.well-known/webauthn file (the RP ID's own site needs no file; otherwise the origin must be \
                listed within the first 5 registrable-domain labels): {"allowed": …, "reason": "…", "labels": [...]} with --json.
                Exit status: 0 opens the app (or the origin is allowed), 1 does not, 2 unusable file, 64 usage error.
                """)

        @Argument(help: "The association file, or - for standard input.")
        var file: String?

        @Argument(help: "The URL to test, e.g. https://example.com/buy/42?x=1#top.")
        var url: String?

        @Option(name: .customLong("app"), help: "The app ID (TEAMID.bundle.id) to decide for.")
        var appID: String?

        @Option(name: .customLong("package"), help: "assetlinks.json: the Android package name to decide for.")
        var packageName: String?

        @Option(help: "assetlinks.json: the Android version (dynamic rules apply from 15).")
        var androidVersion: Int = AppLinkMatcher.firstDynamicRulesVersion

        @Flag(help: "With --batch: the lines carry assetlinks.json files and Android packages.")
        var android = false

        @Option(help: "The host that served the file; a URL on another host (not a subdomain) matches nothing.")
        var domain: String?

        @Flag(help: "Explain the decision: the deciding rule and its settings, or the closest rule and what failed.")
        var explain = false

        @Flag(help: "Print JSON.")
        var json = false

        @Flag(help: "Read JSON lines on standard input and answer each (see above).")
        var batch = false

        @Option(name: .customLong("related-origins"), help: "A /.well-known/webauthn file (or - for standard input): decide for --origin and --rp-id.")
        var relatedOrigins: String?

        @Option(name: .customLong("rp-id"), help: "With --related-origins: the RP ID the caller asks for, e.g. example.com.")
        var rpID: String?

        @Option(help: "With --related-origins: the caller's origin, e.g. https://shop.example.")
        var origin: String?

        func validate() throws {
            if relatedOrigins != nil || rpID != nil || origin != nil {
                guard relatedOrigins != nil, rpID != nil, origin != nil else {
                    throw ValidationError("--related-origins, --rp-id and --origin go together, e.g. aasa-monitor match --related-origins webauthn --rp-id example.com --origin https://shop.example")
                }
                guard file == nil, url == nil, !batch, !android, appID == nil, packageName == nil, domain == nil, !explain else {
                    throw ValidationError("--related-origins takes no file or URL argument and no other match option but --json.")
                }
                return
            }
            if batch {
                guard file == nil, url == nil, appID == nil, domain == nil, packageName == nil, !explain, !json else {
                    throw ValidationError("--batch takes its input from standard input and accepts no other arguments.")
                }
            } else if android {
                throw ValidationError("--android goes with --batch; a file is recognised as assetlinks.json by its content.")
            } else if file == nil || url == nil {
                throw ValidationError("Give the file and the URL, e.g. aasa-monitor match apple-app-site-association https://example.com/buy/1")
            }
            // Refused as `check` refuses them (64, saying why), not answered "no match" (1) as if decided.
            if let url, let problem = Self.urlProblem(url) { throw ValidationError(problem) }
            if let appID {
                do { _ = try AppID(typed: appID) } catch { throw ValidationError("--app \(appID): \(error.message)") }
            }
        }

        /// Why `url` cannot be matched, nil when it can: a whole http(s) URL with a host, or a path
        /// (`/buy/42?x=1`) matched as on any host. Anything else matches nothing on a device.
        static func urlProblem(_ url: String) -> String? {
            let parts = URLParts(parsing: url)
            switch parts.scheme {
            case nil where parts.path.hasPrefix("/"):
                return nil
            case "https", "http":
                return parts.host?.isEmpty == false ? nil : "\(url) has no host: write the whole URL, e.g. https://example.com/buy/1"
            default:
                return "\(url) is not a URL a link opens: write the whole URL, e.g. https://example.com/buy/1, or a path such as /buy/1"
            }
        }

        func run() throws {
            if let relatedOrigins, let rpID, let origin {
                try matchRelatedOrigins(relatedOrigins, rpID: rpID, origin: origin)
            }
            if batch {
                if android { AndroidBatchMatch.run() } else { BatchMatch.run() }
                return
            }
            guard let file, let url else { throw ExitCode(64) }
            let bytes: [UInt8]
            do {
                bytes = try InputFile.read(file)
            } catch {
                Terminal.printError("aasa-monitor match: \(error)")
                throw ExitCode(64)
            }
            if packageName != nil || FileFormat.detect(bytes, name: file) == .android {
                try matchAssetLinks(bytes, url: url)
                return
            }
            let parsed = AASAParser.parse(bytes)
            guard let document = parsed.document else {
                let reasons = parsed.findings.filter { $0.severity == .error }.map(\.message).joined(separator: " ")
                Terminal.printError("aasa-monitor match: the file is not a usable association file. \(reasons)")
                throw ExitCode(2)
            }
            let errors = parsed.findings.filter { $0.severity == .error }.count
            if errors > 0 && !json {
                Terminal.printError("note: the file has \(errors) error finding\(errors == 1 ? "" : "s"); run aasa-monitor validate for details.")
            }
            let compiled = CompiledDocument(document)
            let report = MatchReport(compiled: compiled, url: url, appID: appID, domain: domain, explain: explain)
            Terminal.print(json ? report.json() : report.text(), terminator: "")
            throw ExitCode(report.opens ? 0 : 1)
        }

        /// The browser's decision for one caller; always ends by throwing the exit status.
        private func matchRelatedOrigins(_ path: String, rpID: String, origin: String) throws -> Never {
            let rules = try WebAuthnOutput.rules(command: "match")
            let relyingParty: RelyingPartyID
            do { relyingParty = try RelyingPartyID(rpID, rules: rules) } catch {
                Terminal.printError("aasa-monitor match: --rp-id \(error)")
                throw ExitCode(64)
            }
            let caller: OriginURL
            switch OriginURL.parse(origin, rules: rules) {
            case .success(let parsed) where parsed.origin != nil: caller = parsed
            case .success:
                Terminal.printError("aasa-monitor match: --origin \(origin) has no web origin; write https://host, e.g. https://shop.example")
                throw ExitCode(64)
            case .failure(let failure):
                Terminal.printError("aasa-monitor match: --origin \(origin) is not a URL: \(failure.reason)")
                throw ExitCode(64)
            }
            let bytes: [UInt8]
            do {
                bytes = try InputFile.read(path)
            } catch {
                Terminal.printError("aasa-monitor match: \(error)")
                throw ExitCode(64)
            }
            let decision = RelatedOriginsDecision.decide(rpID: relyingParty, caller: caller, reading: RelatedOriginsReader.read(bytes), rules: rules)
            let shown = caller.origin?.description ?? origin
            Terminal.print(json ? WebAuthnOutput.decisionJSON(decision, rpID: relyingParty, origin: shown)
                                : WebAuthnOutput.decisionText(decision), terminator: "")
            throw ExitCode(decision.allowed ? 0 : decision.outcome == .fileRejected ? 2 : 1)
        }

        private func matchAssetLinks(_ bytes: [UInt8], url: String) throws {
            let reading = AssetLinksReader.read(bytes)
            guard let file = reading.file else {
                let reasons = reading.findings.filter { $0.severity == .error }.prefix(3).map(\.message).joined(separator: " ")
                Terminal.printError("aasa-monitor match: the file is not a usable association file: Google reads no statement from this assetlinks.json. \(reasons)")
                throw ExitCode(2)
            }
            let errors = reading.findings.filter { $0.severity == .error }.count
            if errors > 0 && !json {
                Terminal.printError("note: the file has \(errors) error finding\(errors == 1 ? "" : "s"); run aasa-monitor validate for details.")
            }
            let packages = packageName.map { [$0] } ?? file.packageNames
            let lines = AndroidOutput.packageLines(AppLinkMatcher(file), url: url, packages: packages,
                                                   androidVersion: androidVersion, explain: explain)
            Terminal.print(json ? AndroidOutput.matchJSON(url: url, androidVersion: androidVersion, lines: lines)
                       : AndroidOutput.matchText(url: url, androidVersion: androidVersion, lines: lines), terminator: "")
            throw ExitCode(lines.contains { $0.opensApp } ? 0 : 1)
        }
    }
}