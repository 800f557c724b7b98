import AASA
import ArgumentParser
import AssetLinks
import Foundation
import Vocabulary

extension AASAMonitor {
    /// `aasa-monitor match FILE URL [--app APPID] [--domain HOST] [--explain] [--json]` and `match --batch`;
    /// for assetlinks.json (detected by content) `match FILE URL [--package NAME] [--android-version N]`
    /// and `match --batch --android`.
    /// Exit status: 0 the URL opens the app (or, without --app, some app); 1 it does not; 2 the file is
    /// not a usable JSON object; 64 bad usage. `--batch` exits 0 whatever the lines say.
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
                Exit status: 0 opens the app, 1 does not, 2 unusable file, 64 usage error.
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

        func validate() throws {
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