import Vocabulary

/// Whether a URL an app's owner watches opens the app, judged against the file of the entitlement
/// that covers the URL's host (`aasa-monitor verify-app --url`).
public enum WatchedURLCheck {
    /// Findings when `url` does not open `appID` under `file`. Judged as on a device where this app
    /// is the only one the file lists that is installed: an earlier entry of another app does not
    /// take the URL from it there.
    public static func findings(_ url: String, file: AASADocument, appID: AppID) -> [Finding] {
        switch CompiledDocument(file).decide(url: url, appID: appID.text) {
        case .match:
            return []
        case .exclude(let entry, let rule):
            return [FindingDefinition.watchedURLNotOpened.finding(at: SourceLocation(pointer: "/applinks/details/\(entry)"),
                "\(url) does not open \(appID): rule \(rule) of applinks.details[\(entry)] excludes it.",
                hint: "Remove or narrow the exclusion, or stop watching this URL.")]
        case .noMatch:
            return [FindingDefinition.watchedURLNotOpened.finding(at: nil,
                "\(url) does not open \(appID): no rule of the file's entries for it matches the URL.",
                hint: "Add a component that matches the path, e.g. {\"/\": \"\(pathOf(url))\"}.")]
        }
    }

    /// The URL's host is claimed by no applinks entitlement of the app, so it can never open it.
    public static func unclaimed(_ url: String, host: String) -> Finding {
        FindingDefinition.watchedURLUnclaimed.finding(at: nil,
            "\(url) is on \(host), which no applinks entry of the app's entitlements claims.",
            hint: "Add applinks:\(host) (or a *. wildcard of its parent) to the Associated Domains entitlement.")
    }

    private static func pathOf(_ url: String) -> String {
        guard let scheme = url.range(of: "://") else { return "/" }
        let rest = url[scheme.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return "/" }
        return String(rest[slash...].prefix { $0 != "?" && $0 != "#" })
    }
}
