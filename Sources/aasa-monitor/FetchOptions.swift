import ArgumentParser
import Fetch
import Foundation
import Outbound

/// How the crawler reaches the outside world; shared by `check`, `serve` and `worker`.
/// Each option can also come from the environment, so a service unit or a CI job sets it once.
struct FetchOptions: ParsableArguments {
    @Flag(help: ArgumentHelp(
        "Allow loopback and private addresses (tests and staging only). Env: AASA_MONITOR_ALLOW_PRIVATE=1."))
    var allowPrivateAddresses = false

    @Option(help: ArgumentHelp(
        "A PEM file of CA certificates to trust in addition to the system roots. Env: AASA_MONITOR_CA_FILE.",
        valueName: "PEM"))
    var caFile: String?

    @Option(help: ArgumentHelp(
        "Connect to CONNECT_HOST:CONNECT_PORT instead of HOST:PORT, as curl's --connect-to (empty HOST = every host); repeatable. Env: AASA_MONITOR_CONNECT_TO (comma-separated).",
        valueName: "HOST:PORT:CONNECT_HOST:CONNECT_PORT"))
    var connectTo: [String] = []

    @Option(help: ArgumentHelp(
        "Apple's CDN endpoint; the host is appended. Env: AASA_MONITOR_CDN_BASE.", valueName: "URL"))
    var cdnBase: String?

    @Option(name: .customLong("google-dal-base"), help: ArgumentHelp(
        "Google's Digital Asset Links API (default \(GoogleDALSettings.defaultBase)). Env: AASA_MONITOR_GOOGLE_DAL_BASE; an API key, if you use one: AASA_MONITOR_GOOGLE_API_KEY.",
        valueName: "URL"))
    var googleDALBase: String?

    @Option(name: .customLong("tls-sessions"), help: ArgumentHelp(
        "TLS sessions this process keeps for resumption between checks (default \(FetchConfiguration().tlsSessions); a few KB each; 0: none). Size it to the domains one worker checks when memory allows. Env: AASA_MONITOR_TLS_SESSIONS.",
        valueName: "N"))
    var tlsSessions: Int?

    // Politeness towards a shared host; a platform checking its own customers' domains, which all
    // point at its edge, raises it (issue #17: with every domain on one address it bounds the crawl).
    @Option(name: .customLong("max-per-address"), help: ArgumentHelp(
        "Most requests this process has in flight towards one IP address (default \(FetchConfiguration().maxConnectionsPerAddress)). Raise it when many of your domains share your own servers' addresses. Env: AASA_MONITOR_MAX_PER_ADDRESS.",
        valueName: "N"))
    var maxPerAddress: Int?

    func validate() throws {
        _ = try resolved(environment: ProcessInfo.processInfo.environment)
    }

    /// The fetcher configuration these options (flags first, then the environment) describe.
    func configuration(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> FetchConfiguration {
        try resolved(environment: environment)
    }

    private func resolved(environment: [String: String]) throws -> FetchConfiguration {
        var configuration = FetchConfiguration()
        let allowFromEnvironment = ["1", "true", "yes"].contains(environment["AASA_MONITOR_ALLOW_PRIVATE"]?.lowercased() ?? "")
        configuration.policy = OutboundPolicy(allowPrivateAddresses: allowPrivateAddresses || allowFromEnvironment)
        configuration.extraCAFile = caFile ?? environment["AASA_MONITOR_CA_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        if let base = cdnBase ?? environment["AASA_MONITOR_CDN_BASE"].flatMap({ $0.isEmpty ? nil : $0 }) {
            configuration.cdnBase = base
        }
        let dalBase = googleDALBase ?? environment["AASA_MONITOR_GOOGLE_DAL_BASE"].flatMap { $0.isEmpty ? nil : $0 }
        if let dalBase, !dalBase.lowercased().hasPrefix("https://") {
            throw ValidationError("--google-dal-base \(dalBase): give an https:// URL, e.g. \(GoogleDALSettings.defaultBase)")
        }
        // The key comes only from the environment: a command line is visible to every user of the machine.
        configuration.googleDAL = GoogleDALSettings(base: dalBase ?? GoogleDALSettings.defaultBase,
                                                    apiKey: environment["AASA_MONITOR_GOOGLE_API_KEY"].flatMap { $0.isEmpty ? nil : $0 })
        do {
            if connectTo.isEmpty {
                configuration.connectTo = try ConnectToRule.parseList(environment["AASA_MONITOR_CONNECT_TO"] ?? "")
            } else {
                configuration.connectTo = try connectTo.flatMap { try ConnectToRule.parseList($0) }
            }
        } catch {
            throw ValidationError(String(describing: error))
        }
        if let sessions = try tlsSessions ?? Self.integer("AASA_MONITOR_TLS_SESSIONS", in: environment) {
            guard sessions >= 0 else { throw ValidationError("--tls-sessions must be 0 or more") }
            configuration.tlsSessions = sessions
        }
        if let perAddress = try maxPerAddress ?? Self.integer("AASA_MONITOR_MAX_PER_ADDRESS", in: environment) {
            guard perAddress >= 1 else { throw ValidationError("--max-per-address must be at least 1") }
            configuration.maxConnectionsPerAddress = perAddress
        }
        if let file = configuration.extraCAFile, !FileManager.default.isReadableFile(atPath: file) {
            throw ValidationError("cannot read the CA file \(file)")
        }
        return configuration
    }

    /// An integer setting from the environment; a value that is not one is refused, not ignored.
    private static func integer(_ name: String, in environment: [String: String]) throws -> Int? {
        guard let text = environment[name], !text.isEmpty else { return nil }
        guard let value = Int(text) else { throw ValidationError("\(name)=\(text): give a whole number") }
        return value
    }
}
