import ArgumentParser
import Foundation
import Web

/// How the dashboard treats cookies and proxies.
struct WebOptions: ParsableArguments {
    @Flag(name: .customLong("secure-cookies"),
          help: "Mark session cookies Secure (set this when users reach the dashboard over HTTPS through a proxy).")
    var secureCookies = false

    @Flag(name: .customLong("trust-proxy"),
          help: "Trust X-Forwarded-Proto from the reverse proxy in front of the dashboard.")
    var trustProxy = false

    @Option(name: .customLong("metrics-token-file"),
            help: "Protect /metrics with the bearer token in this file. Default: env AASA_MONITOR_METRICS_TOKEN, else open.")
    var metricsTokenFile: String?

    var configuration: WebConfiguration {
        get throws { try makeConfiguration() }
    }

    private func makeConfiguration() throws -> WebConfiguration {
        let environment = ProcessInfo.processInfo.environment
        // The same switch as the crawler's: test fleets and staging reach hosts through connect-to
        // rules, so registration does not insist that their names resolve to public addresses.
        let allowPrivate = ["1", "true", "yes"].contains(environment["AASA_MONITOR_ALLOW_PRIVATE"]?.lowercased() ?? "")
            || environment["AASA_MONITOR_ALLOW_PRIVATE_ADDRESSES"] == "1"
        var configuration = WebConfiguration(
            secureCookies: secureCookies || environment["AASA_MONITOR_SECURE_COOKIES"] == "1",
            trustForwardedProto: trustProxy || environment["AASA_MONITOR_TRUST_PROXY"] == "1",
            // Only test fleets on loopback set this; the crawler's own policy decides what it fetches.
            allowPrivateAddresses: allowPrivate, resolveOnRegister: !allowPrivate)
        configuration.allowedHosts = (environment["AASA_MONITOR_ALLOWED_HOSTS"] ?? "")
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        configuration.baseURL = environment["AASA_MONITOR_BASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
        configuration.setupCode = environment["AASA_MONITOR_SETUP_CODE"].flatMap { $0.isEmpty ? nil : SetupCode(value: $0) }
        if let path = metricsTokenFile {
            // A file, not the token itself on the command line, where `ps` would show it to every user.
            guard let text = try? String(contentsOfFile: path, encoding: .utf8),
                  case let token = text.trimmingCharacters(in: .whitespacesAndNewlines), !token.isEmpty else {
                throw ValidationError("--metrics-token-file: cannot read a token from \(path)")
            }
            configuration.metricsToken = token
        } else if let token = environment["AASA_MONITOR_METRICS_TOKEN"], !token.isEmpty {
            configuration.metricsToken = token
        }
        return configuration
    }
}
