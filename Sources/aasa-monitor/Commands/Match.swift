import AASA
import ArgumentParser
import Foundation

extension AASAMonitor {
    /// `aasa-monitor match FILE URL [--app APPID] [--domain HOST] [--explain] [--json]` and `match --batch`.
    /// Exit status: 0 the URL opens the app (or, without --app, some app); 1 it does not; 2 the file is
    /// not a usable JSON object; 64 bad usage. `--batch` exits 0 whatever the lines say.
    struct Match: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show which app a URL opens under an apple-app-site-association file, and why.",
            discussion: """
                With --app, the decision for that app (match, exclude or no_match); without, every app the file \
                lists, in the order the system prefers them. --batch reads JSON lines \
                {"id": …, "aasa": {…}, "domain": "example.com", "appId": "TEAMID.bundle", "url": "…"} on standard input \
                and writes {"id": …, "decision": "match" | "exclude" | "no_match"} (or "error") per line.
                Exit status: 0 opens the app, 1 does not, 2 unusable file, 64 usage error.
                """)

        @Argument(help: "The association file, or - for standard input.")
        var file: String?

        @Argument(help: "The URL to test, e.g. https://example.com/buy/42?x=1#top.")
        var url: String?

        @Option(name: .customLong("app"), help: "The app ID (TEAMID.bundle.id) to decide for.")
        var appID: String?

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
                guard file == nil, url == nil, appID == nil, domain == nil, !explain, !json else {
                    throw ValidationError("--batch takes its input from standard input and accepts no other arguments.")
                }
            } else if file == nil || url == nil {
                throw ValidationError("Give the file and the URL, e.g. aasa-monitor match apple-app-site-association https://example.com/buy/1")
            }
        }

        func run() throws {
            if batch {
                BatchMatch.run()
                return
            }
            guard let file, let url else { throw ExitCode(64) }
            let bytes: [UInt8]
            do {
                bytes = try InputFile.read(file)
            } catch {
                FileHandle.standardError.write(Data("aasa-monitor match: \(error)\n".utf8))
                throw ExitCode(64)
            }
            let parsed = AASAParser.parse(bytes)
            guard let document = parsed.document else {
                let reasons = parsed.findings.filter { $0.severity == .error }.map(\.message).joined(separator: " ")
                FileHandle.standardError.write(Data("aasa-monitor match: the file is not a usable association file. \(reasons)\n".utf8))
                throw ExitCode(2)
            }
            let errors = parsed.findings.filter { $0.severity == .error }.count
            if errors > 0 && !json {
                FileHandle.standardError.write(Data("note: the file has \(errors) error finding\(errors == 1 ? "" : "s"); run aasa-monitor validate for details.\n".utf8))
            }
            let compiled = CompiledDocument(document)
            let report = MatchReport(compiled: compiled, url: url, appID: appID, domain: domain, explain: explain)
            print(json ? report.json() : report.text(), terminator: "")
            throw ExitCode(report.opens ? 0 : 1)
        }
    }
}
