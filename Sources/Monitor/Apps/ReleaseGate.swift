import AASA
import AppManifests
import AssetLinks
import Vocabulary

/// The release gate of `aasa-monitor verify-app`: an app's entitlements against what its domains
/// serve right now. Pure: the checks are done by the caller and handed in.
public enum ReleaseGate {
    /// What one domain's check found, for the gate.
    public struct HostCheck: Sendable {
        public var report: CheckReport
        public var seconds: Double

        public init(report: CheckReport, seconds: Double) {
            self.report = report
            self.seconds = seconds
        }
    }

    /// Infos that come from the gate's own reading (a CDN or Google's copy that lags, an alternate
    /// mode) rather than from the file; text output shows these and only counts the file's.
    public static let gateInfoCodes: Set<String> = [FindingDefinition.cdnStale.code, FindingDefinition.entitlementAlternateMode.code,
                                                    AndroidCheckFinding.googleStale.code]

    /// Codes that describe Apple's CDN copy rather than the origin's file.
    static let cdnCodes: Set<String> = [FindingDefinition.cdnFailure.code, FindingDefinition.cdnStale.code]

    /// One test case per entitlement entry (domain × service), then one per watched URL.
    /// - Parameters:
    ///   - checks: the check of each entry's `host` (the parent's for a wildcard); nil when it was not checked.
    ///   - strictCDN: a CDN copy that lags the origin (`cdn-stale`) fails the gate; otherwise it is
    ///     reported as info, since Apple's CDN catches up within about a day of a deploy.
    public static func evaluate(entitlements: AppleEntitlements, appIDs: [AppID], urls: [String],
                                checks: [String: HostCheck], strictCDN: Bool) -> GateReport {
        var cases: [GateCase] = []
        for domain in entitlements.domains {
            guard let check = checks[domain.host] else { continue }
            var findings = gateFindings(check.report.findings, originOnly: domain.isOriginOnly, strictCDN: strictCDN)
            findings += domain.notes
            var missing: [String] = []
            if let document = check.report.document {
                for appID in appIDs {
                    let unlisted = EntitlementValidator.findings(for: domain.entitlement, file: document, appID: appID)
                        .filter { $0.code == FindingDefinition.entitlementAppNotInFile.code }
                    findings += unlisted
                    if !unlisted.isEmpty { missing.append(appID.text) }
                }
            }
            var entry = GateCase(platform: .apple, group: domain.service.rawValue, name: domain.entitlement,
                                 host: domain.host, findings: sorted(findings),
                                 couldNotCheck: check.report.couldNotCheck, seconds: check.seconds)
            entry.missingAppIDs = missing
            cases.append(entry)
        }
        for url in urls {
            cases.append(watched(url, entitlements: entitlements, appIDs: appIDs, checks: checks))
        }
        return GateReport(appIDs: appIDs, cases: cases)
    }

    static func gateFindings(_ findings: [Finding], originOnly: Bool, strictCDN: Bool) -> [Finding] {
        findings.compactMap { finding in
            guard cdnCodes.contains(finding.code) else { return finding }
            // Developer mode: devices fetch from the origin and never see the CDN (aasa-spec.md §3.3).
            if originOnly { return nil }
            guard finding.code == FindingDefinition.cdnStale.code else { return finding }
            var lagging = finding
            if strictCDN {
                lagging.severity = .error
            } else {
                lagging.severity = .info
                lagging.message += " The gate lets this pass (the CDN catches up within about a day); --strict-cdn fails it."
            }
            return lagging
        }
    }

    /// The entry that decides a URL's host: an exact applinks entry first, else the longest
    /// matching wildcard (aasa-spec.md §12 step 3).
    static func coveringEntry(_ host: String, in entitlements: AppleEntitlements) -> AssociatedDomain? {
        let applinks = entitlements.domains(for: .applinks)
        if let exact = applinks.first(where: { !$0.isWildcard && $0.host == host }) { return exact }
        return applinks.filter { $0.isWildcard && host.hasSuffix("." + $0.host) }.max { $0.host.count < $1.host.count }
    }

    private static func watched(_ url: String, entitlements: AppleEntitlements, appIDs: [AppID],
                                checks: [String: HostCheck]) -> GateCase {
        let host = urlHost(url)
        guard let entry = coveringEntry(host, in: entitlements) else {
            return GateCase(platform: .apple, group: "url", name: url, host: host,
                            findings: [WatchedURLCheck.unclaimed(url, host: host)], couldNotCheck: false, seconds: 0)
        }
        let check = checks[entry.host]
        var findings: [Finding] = []
        if let document = check?.report.document {
            for appID in appIDs { findings += WatchedURLCheck.findings(url, file: document, appID: appID) }
        }
        // Without a file the URL opens nothing; the entry's own case already says why.
        let couldNotCheck = check?.report.couldNotCheck ?? true
        if check?.report.document == nil, !couldNotCheck {
            findings.append(FindingDefinition.watchedURLNotOpened.finding(at: nil,
                "\(url) opens no app: \(entry.host) serves no usable apple-app-site-association file (see its \(entry.entitlement) case)."))
        }
        return GateCase(platform: .apple, group: "url", name: url, host: entry.host, findings: sorted(findings),
                        couldNotCheck: couldNotCheck && findings.isEmpty, seconds: 0)
    }

    /// The lower-cased host of an http(s) URL, or "" when it has none.
    public static func urlHost(_ url: String) -> String {
        guard let scheme = url.range(of: "://") else { return "" }
        let authority = url[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostPort = authority.split(separator: "@").last ?? ""
        return String(hostPort.prefix { $0 != ":" }).lowercased()
    }

    static func sorted(_ findings: [Finding]) -> [Finding] {
        findings.enumerated().sorted { ($0.element.severity.rank, $0.offset) < ($1.element.severity.rank, $1.offset) }.map(\.element)
    }
}

/// One line of the gate: an entitlement entry (platform, service, entry) or a watched URL.
public struct GateCase: Hashable, Sendable, CheckConclusion {
    public var platform: Platform
    /// The service (`applinks`, `webcredentials`, …) or `url` for a watched URL.
    public var group: String
    /// The entitlement entry as written, or the URL.
    public var name: String
    /// The host whose file decided the case.
    public var host: String
    public var findings: [Finding]
    /// No answer from the origin for a reason that may be ours (DNS, network, refused address).
    public var couldNotCheck: Bool
    public var seconds: Double

    /// An Apple entry's app IDs its host's file does not list for the entry's service: the
    /// expectations it misses, as the monitor counts them (`entitlement-app-not-in-file` findings).
    public var missingAppIDs: [String] = []

    public var verdict: Verdict { Verdict(findings: findings) }

    /// The one line that explains a case that does not pass, from the function an app's cell and its
    /// domain take theirs from, so `verify-app` says what the app page and the domain page say: an
    /// Apple entry's by `DomainVerdict.apple` (the file's findings, then the app IDs it misses, in
    /// the monitor's words), any other's its most severe finding (`leadingReason`, as Android's cell
    /// and the domain's Android side choose it). nil when the case passes.
    public var reason: String? {
        guard verdict != .pass else { return nil }
        guard platform == .apple, let service = Service(rawValue: group) else { return findings.leadingReason(verdict: verdict) }
        let file = findings.filter { $0.code != FindingDefinition.entitlementAppNotInFile.code }
        let unmet = ExpectationResults(missingAppIDs: missingAppIDs.isEmpty ? [:] : [service: missingAppIDs])
        return DomainVerdict.apple(fileVerdict: Verdict(findings: file), findings: file, expectations: unmet).reason
    }
}

/// Every case of a gate run, and the exit status of the whole.
public struct GateReport: Hashable, Sendable {
    public var appIDs: [AppID]
    public var cases: [GateCase]
    /// The Android packages checked (verify-app --manifest); empty for an Apple-only run.
    public var packages: [String] = []
    /// The packages checked without a signing-key fingerprint (no --fingerprint): their cases pass on
    /// the package name alone, whichever keys the file grants, so every output says so.
    public var signingKeysNotChecked: [String] = []

    /// The worst case's, errors before cases that could not be checked (`CheckExitStatus.worst`).
    public var exitStatus: Int32 { CheckExitStatus.worst(cases.map(\.exitStatus)) }
}

/// A case as `verify-app --json` prints it: its fields but `seconds` (the JUnit report's), with the
/// verdict and exit status its findings give, which release scripts branch on.
extension GateCase: Encodable {
    private enum CodingKeys: String, CodingKey {
        case platform, group, name, host, verdict, couldNotCheck, exitStatus, findings
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(platform, forKey: .platform)
        try container.encode(group, forKey: .group)
        try container.encode(name, forKey: .name)
        try container.encode(host, forKey: .host)
        try container.encode(verdict, forKey: .verdict)
        try container.encode(couldNotCheck, forKey: .couldNotCheck)
        try container.encode(exitStatus, forKey: .exitStatus)
        try container.encode(findings, forKey: .findings)
    }
}

/// A gate run as `verify-app --json` prints it: its fields and the whole run's exit status.
extension GateReport: Encodable {
    /// `app_ids` spelled out: the snake_case converter would split the acronym into `app_i_ds`,
    /// where every other public JSON (the API, the config file) says `app_ids`.
    private enum CodingKeys: String, CodingKey {
        case appIDs = "app_ids"
        case packages, signingKeysNotChecked, exitStatus, cases
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(appIDs, forKey: .appIDs)
        try container.encode(packages, forKey: .packages)
        // Only where Android was checked: an Apple-only report keeps its shape.
        if !packages.isEmpty { try container.encode(signingKeysNotChecked, forKey: .signingKeysNotChecked) }
        try container.encode(exitStatus, forKey: .exitStatus)
        try container.encode(cases, forKey: .cases)
    }
}
