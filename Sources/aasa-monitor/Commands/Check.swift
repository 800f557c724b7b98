import AASA
import ArgumentParser
import Fetch
import Foundation
import Vocabulary

extension AASAMonitor {
    /// `aasa-monitor check DOMAIN`: one full check, as a CI job runs it after a deploy.
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check one domain now: both file locations, Apple's CDN, and the file itself.",
            discussion: """
                Fetches https://DOMAIN/.well-known/apple-app-site-association (and the legacy root location) the way \
                Apple's CDN does — HTTPS only, no redirects — asks Apple's CDN for its copy, and validates the file.
                Exit status: 0 pass, 1 warnings or deprecations, 2 errors, 3 could not check (DNS, network, refused address).
                """)

        @Argument(help: "The domain, Unicode or Punycode; *.example.com checks example.com.")
        var domain: String

        @Flag(help: "Print the report as JSON.")
        var json = false

        @Flag(inversion: .prefixedNo, help: "Ask Apple's CDN for its copy.")
        var cdn = true

        @OptionGroup(title: "Outbound")
        var fetch: FetchOptions

        func validate() throws {
            do {
                _ = try HostName(domain)
            } catch {
                throw ValidationError(String(describing: error))
            }
        }

        func run() async throws {
            let host: HostName
            do { host = try HostName(domain) } catch { throw ValidationError(String(describing: error)) }
            var configuration = try fetch.configuration()
            configuration.checkCDN = cdn
            let fetcher: Fetcher
            do { fetcher = try Fetcher(configuration) } catch { throw ValidationError(String(describing: error)) }
            let check = await fetcher.check(host)
            fetcher.shutdown()
            if json {
                Terminal.print(TerminalText(json: try CheckOutput.json(check)))
            } else {
                Terminal.print(CheckOutput.text(check), terminator: "")
            }
            throw ExitCode(CheckOutput.exitStatus(check.report))
        }
    }
}
