import Vocabulary

/// Checks one Associated Domains entitlement string, `<service>:<host>[?mode=<mode>]`
/// (aasa-spec.md §13, §15.3), and optionally whether the host's file lists the app for that service.
public enum EntitlementValidator {
    public static let services = ["applinks", "webcredentials", "activitycontinuation", "appclips", "authsrv"]
    public static let modes = ["developer", "managed", "developer+managed"]

    /// - Parameters:
    ///   - entitlement: e.g. `applinks:*.example.com?mode=developer`.
    ///   - file: the host's parsed association file, to check that it lists `appID`.
    ///   - appID: the app the entitlement belongs to, already validated by `AppID`'s rule (the same
    ///     one the registration form and the import use).
    public static func findings(for entitlement: String, file: AASADocument? = nil, appID: AppID? = nil) -> [Finding] {
        let (parts, findings) = read(entitlement)
        guard let file, let appID, let parts, services.contains(parts.service),
              !lists(file, service: parts.service, appID: appID) else { return findings }
        return findings + [FindingDefinition.entitlementAppNotInFile.finding(at: nil,
            "The file of \(parts.host) does not list \(appID) for \(parts.service), so the system will not associate the app with the domain.",
            hint: parts.service == "applinks" ? "Add \(appID) to an entry's appIDs in applinks.details."
                : "Add \(appID) to \(parts.service).apps.")]
    }

    /// One entitlement string taken apart. `host` is as written (lower-cased), without the `*.`.
    public struct Parts: Hashable, Sendable {
        public var service: String
        public var host: String
        public var isWildcard: Bool
        /// The `?mode=` value when it is one of `modes`.
        public var mode: String?
    }

    /// Takes one entitlement string apart and reports every rule of §13 it breaks. `parts` is nil
    /// when the string has no service prefix; an error finding means the system would refuse it.
    public static func read(_ entitlement: String) -> (parts: Parts?, findings: [Finding]) {
        var findings: [Finding] = []
        func malformed(_ message: String, _ hint: String) {
            findings.append(FindingDefinition.entitlementMalformed.finding(at: nil, message, hint: hint))
        }
        let example = "applinks:example.com"
        if entitlement.contains(where: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
            malformed("The entitlement \"\(entitlement)\" contains spaces.", "Remove every space: \(example).")
        }
        let trimmed = entitlement.filter { $0 != " " && $0 != "\t" && $0 != "\n" }
        guard let colon = trimmed.firstIndex(of: ":") else {
            malformed("The entitlement \"\(entitlement)\" has no service prefix.", "Write <service>:<host>, e.g. \(example).")
            return (nil, findings)
        }
        let service = String(trimmed[..<colon])
        var rest = String(trimmed[trimmed.index(after: colon)...])
        if !services.contains(service) {
            let suggestion = KeySuggestion.nearest(to: service, among: services)
            findings.append(FindingDefinition.entitlementUnknownService.finding(at: nil,
                "\"\(service)\" is not an Associated Domains service\(suggestion.map { "; did you mean \"\($0)\"?" } ?? ".")",
                hint: "Use one of: \(services.joined(separator: ", "))."))
        }
        if let schemeEnd = rest.range(of: "//") {
            malformed("The entitlement \"\(entitlement)\" contains a URL scheme; it takes a bare host name.",
                      "Write \(service):\(rest[schemeEnd.upperBound...].split(separator: "/").first.map(String.init) ?? "example.com").")
            rest = String(rest[schemeEnd.upperBound...])
        }
        var mode: String?
        if let question = rest.firstIndex(of: "?") {
            let query = String(rest[rest.index(after: question)...])
            rest = String(rest[..<question])
            if query.hasPrefix("mode=") {
                mode = String(query.dropFirst(5))
            } else {
                malformed("The entitlement \"\(entitlement)\" has the query \"?\(query)\"; only ?mode=… is allowed.",
                          "Remove \"?\(query)\".")
            }
        }
        var host = rest
        if let slash = host.firstIndex(of: "/") {
            let tail = String(host[slash...])
            malformed(tail == "/" ? "The entitlement \"\(entitlement)\" ends with a slash." :
                        "The entitlement \"\(entitlement)\" contains the path \"\(tail)\"; it takes a host name only.",
                      "Write \(service):\(host[..<slash]).")
            host = String(host[..<slash])
        }
        if host.hasPrefix("[") {
            // An IPv6 literal: its colons are not a port. Devices match by host name and Apple's CDN
            // refuses addresses, so an address can never be associated.
            malformed("The entitlement \"\(entitlement)\" names the IP address \(host); Associated Domains need a host name.",
                      "Write the host name the site is served under, e.g. \(service):example.com.")
            return (Parts(service: service, host: host.lowercased(), isWildcard: false, mode: nil), findings)
        }
        if let portColon = host.lastIndex(of: ":") {
            let port = host[host.index(after: portColon)...]
            findings.append(FindingDefinition.entitlementPort.finding(at: nil,
                "The entitlement \"\(entitlement)\" names the port \(port); Associated Domains work only on the default HTTPS port.",
                hint: "Remove \":\(port)\" and serve the file on port 443."))
            host = String(host[..<portColon])
        }
        if host.isEmpty {
            malformed("The entitlement \"\(entitlement)\" has no host name.", "Write \(service):example.com.")
        } else if isIPv4(host) {
            malformed("The entitlement \"\(entitlement)\" names the IP address \(host); Associated Domains need a host name.",
                      "Write the host name the site is served under, e.g. \(service):example.com.")
        }
        let wildcard = host.hasPrefix("*.")
        let body = wildcard ? String(host.dropFirst(2)) : host
        if wildcard && body.isEmpty {
            // "applinks:*." was accepted with an empty host (found by fuzzing the entitlements reader).
            malformed("The entitlement \"\(entitlement)\" has a wildcard but no host name after \"*.\".",
                      "Write \(service):*.example.com.")
        } else if let bad = body.unicodeScalars.first(where: { $0 != "*" && !isHostNameScalar($0) }) {
            malformed("The host \"\(host)\" contains U+\(String(bad.value, radix: 16, uppercase: true)), which a host name cannot have.",
                      "Use letters, digits, hyphens and dots only, e.g. \(service):example.com.")
        } else if !body.isEmpty, body.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            malformed("The host \"\(host)\" has an empty label (two dots in a row, or a dot at an end).",
                      "Write the host name without stray dots, e.g. \(service):example.com.")
        }
        if body.contains("*") {
            findings.append(FindingDefinition.entitlementWildcardNotAllowed.finding(at: nil,
                "\"\(host)\" has a * other than a leading \"*.\"; only *.example.com wildcards exist.",
                hint: "Write *.example.com, or list the hosts one by one."))
        } else if wildcard && service == "appclips" {
            findings.append(FindingDefinition.entitlementWildcardNotAllowed.finding(at: nil,
                "App Clips cannot use wildcard domains (\(entitlement)).",
                hint: "List each host of the App Clip: appclips:\(body), appclips:www.\(body)…"))
        }
        if body.unicodeScalars.contains(where: { !$0.isASCII }) {
            findings.append(FindingDefinition.entitlementIDNNotPunycode.finding(at: nil,
                "The host \"\(host)\" contains non-ASCII characters; the entitlement needs the Punycode form (xn--…).",
                hint: "Convert the host to Punycode (IDNA), e.g. bücher.example → xn--bcher-kva.example."))
        }
        if let mode {
            if modes.contains(mode) {
                findings.append(FindingDefinition.entitlementAlternateMode.finding(at: nil,
                    "The entitlement uses ?mode=\(mode): devices fetch the file directly instead of through Apple's CDN, only in \(mode) mode; App Store builds ignore it.",
                    hint: "Fine for development or MDM; ship App Store builds without ?mode."))
            } else {
                findings.append(FindingDefinition.entitlementModeInvalid.finding(at: nil,
                    "?mode=\(mode) is not a mode; the modes are developer, managed and developer+managed.",
                    hint: "Write ?mode=developer, ?mode=managed or ?mode=developer+managed."))
            }
        }
        let knownMode = mode.flatMap { modes.contains($0) ? $0 : nil }
        return (Parts(service: service, host: body.lowercased(), isWildcard: wildcard, mode: knownMode), findings)
    }

    /// Whether a host name written in an app's own declarations (an entitlement, an Android
    /// manifest's `android:host`) may hold this character: DNS names are letters, digits, hyphens
    /// (and underscores in practice) between dots, and a non-ASCII letter is an IDN; anything else
    /// (`#`, `^`, a space, a control or format character) cannot be part of a host.
    public static func isHostNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII
            ? scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-._".unicodeScalars.contains(scalar)
            : ![.control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .unassigned, .privateUse, .surrogate]
                .contains(scalar.properties.generalCategory)
    }

    /// Four dot-separated decimal numbers: what inet_aton would read as an address (the short forms
    /// such as `127.1` are not host names either, but no one writes them in an entitlement).
    static func isIPv4(_ host: String) -> Bool {
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count == 4 && labels.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }

    /// App IDs are compared exactly: whether devices fold case is [uncertain §17.10].
    static func lists(_ file: AASADocument, service: String, appID: AppID) -> Bool {
        if service == "applinks" {
            return file.applinks?.details.contains { $0.appIDs.contains(appID.text) } ?? false
        }
        return file.appServices[service]?.apps.contains(appID.text) ?? false
    }
}
