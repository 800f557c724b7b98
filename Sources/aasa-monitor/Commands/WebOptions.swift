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

    var configuration: WebConfiguration {
        let environment = ProcessInfo.processInfo.environment
        // The same switch as the crawler's: test fleets and staging reach hosts through connect-to
        // rules, so registration does not insist that their names resolve to public addresses.
        let allowPrivate = ["1", "true", "yes"].contains(environment["AASA_MONITOR_ALLOW_PRIVATE"]?.lowercased() ?? "")
            || environment["AASA_MONITOR_ALLOW_PRIVATE_ADDRESSES"] == "1"
        return WebConfiguration(
            secureCookies: secureCookies || environment["AASA_MONITOR_SECURE_COOKIES"] == "1",
            trustForwardedProto: trustProxy || environment["AASA_MONITOR_TRUST_PROXY"] == "1",
            // Only test fleets on loopback set this; the crawler's own policy decides what it fetches.
            allowPrivateAddresses: allowPrivate, resolveOnRegister: !allowPrivate)
    }
}
