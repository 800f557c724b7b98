import AASA
import AppManifests
import AssetLinks
import Vocabulary

extension ReleaseGate {
    /// What one verified host's Android check found, for the gate.
    public struct AndroidHostCheck: Sendable {
        public var report: AndroidCheckReport
        public var seconds: Double

        public init(report: AndroidCheckReport, seconds: Double) {
            self.report = report
            self.seconds = seconds
        }
    }

    /// The Android half of the gate: one case per `autoVerify` host of the manifest (its assetlinks.json
    /// must verify every app with its fingerprints), then one per URL on a verified host (it must open
    /// each app on Android 15+, where dynamic rules decide). Pure: the checks are done by the caller.
    /// - Parameters:
    ///   - checks: keyed by the manifest host as written (`*.example.com` for a wildcard).
    ///   - reportUnclaimed: also make a case for a URL no verified host covers (when no entitlements
    ///     were given, so the Apple half does not already report it).
    ///   - strictGoogle: Google's copy lagging the origin (`google-stale`) fails the gate; otherwise it
    ///     is info, as a lagging Apple CDN is.
    ///   - device: pasted `adb shell pm get-app-links` output; a host of an app the device does not
    ///     count as verified adds `device-not-verified` to the host's case.
    public static func evaluateAndroid(manifest: AndroidManifest, apps: [AndroidAppExpectation], urls: [String],
                                       checks: [String: AndroidHostCheck], reportUnclaimed: Bool, strictGoogle: Bool,
                                       device: DeviceLinkStates? = nil) -> [GateCase] {
        var cases: [GateCase] = []
        for host in manifest.verifiedHosts {
            guard let check = checks[host.description] else { continue }
            // The manifest's own scope: a dynamic rule outside it never decides (dynamic-rule-out-of-scope).
            var scoped: [Finding] = []
            if let file = check.report.file {
                let claimed = claimedPaths(manifest, host: host)
                for app in apps { scoped += DynamicRuleScope.findings(file, packageName: app.packageName, claimed: claimed) }
            }
            for app in apps { scoped += device?.findings(packageName: app.packageName, host: host.description) ?? [] }
            let findings = (check.report.findings + scoped).map { finding -> Finding in
                guard finding.code == AndroidCheckFinding.googleStale.code else { return finding }
                var lagging = finding
                if strictGoogle {
                    lagging.severity = .error
                } else if lagging.severity != .info {
                    lagging.severity = .info
                    lagging.message += " The gate lets this pass (Google catches up within its maxAge); --strict-cdn fails it."
                }
                return lagging
            }
            cases.append(GateCase(platform: .android, group: "applinks", name: host.description, host: host.host,
                                  findings: sorted(findings), couldNotCheck: check.report.couldNotCheck, seconds: check.seconds))
        }
        for url in urls {
            let host = urlHost(url)
            let covering = manifest.verifiedHosts.first { !$0.isWildcard && $0.host == host }
                ?? manifest.verifiedHosts.filter { $0.isWildcard && host.hasSuffix("." + $0.host) }.max { $0.host.count < $1.host.count }
            guard let covering else {
                if reportUnclaimed {
                    cases.append(GateCase(platform: .android, group: "url", name: url, host: host,
                                          findings: [FindingDefinition.watchedURLUnclaimed.finding(at: nil,
                                              "\(url) is on \(host), which no intent filter with android:autoVerify=\"true\" of the manifest claims.",
                                              hint: "Add the host to an autoVerify intent filter (VIEW, BROWSABLE, DEFAULT, scheme https).")],
                                          couldNotCheck: false, seconds: 0))
                }
                continue
            }
            let report = checks[covering.description]?.report
            var findings: [Finding] = []
            if let file = report?.file {
                let matcher = AppLinkMatcher(file)
                for app in apps {
                    let decision = matcher.decide(AndroidURL(url), packageName: app.packageName)
                    if !decision.opensApp {
                        findings.append(FindingDefinition.watchedURLNotOpened.finding(at: nil,
                            "\(url) does not open \(app.packageName) on Android 15+: \(matcher.explain(AndroidURL(url), packageName: app.packageName).summary)",
                            hint: "Fix the app's statement or its dynamic rules for this path, or stop watching the URL."))
                    }
                }
            }
            let couldNotCheck = report?.couldNotCheck ?? true
            if report?.file == nil, !couldNotCheck {
                findings.append(FindingDefinition.watchedURLNotOpened.finding(at: nil,
                    "\(url) opens no app: \(covering.host) serves no statement list Google reads (see its \(covering.description) case)."))
            }
            cases.append(GateCase(platform: .android, group: "url", name: url, host: covering.host, findings: sorted(findings),
                                  couldNotCheck: couldNotCheck && findings.isEmpty, seconds: 0))
        }
        return cases
    }

    /// The paths the manifest's autoVerify filters claim for `host` (Android merges a filter's data
    /// elements: each host with each path); empty when some filter claims every path of it.
    static func claimedPaths(_ manifest: AndroidManifest, host: ManifestHost) -> [ManifestPath] {
        let filters = manifest.webFilters.filter { $0.autoVerify && $0.hosts.contains(host) }
        guard !filters.contains(where: { $0.paths.isEmpty }) else { return [] }
        return filters.flatMap(\.paths).map { path in
            switch path {
            case .path(let t): .exact(t)
            case .prefix(let t): .prefix(t)
            case .suffix(let t): .suffix(t)
            // `.` `*` `\` are pathPattern's syntax, `[ ] { } +` pathAdvancedPattern's: the literal part ends there.
            case .pattern(let t), .advancedPattern(let t): .pattern(literalPrefix: String(t.prefix { !".*\\[{+?".contains($0) }))
            }
        }
    }
}
