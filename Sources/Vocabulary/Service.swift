/// The Associated Domains services an app claims a domain for and whose app IDs an operator can
/// require (aasa-spec.md §4, §13): applinks and the `apps` services. Shared by the entitlements
/// reader, the expectations, the pages and the column (`expected_app_ids.service`, the keys of stored
/// expectation results), so one word names a service from the file to the column: keep the raw values.
public enum Service: String, Hashable, Sendable, Codable, CodingKeyRepresentable, CaseIterable, Comparable {
    case applinks, webcredentials, appclips, activitycontinuation

    /// What the form and the domain page call it.
    public var label: String {
        switch self {
        case .applinks: "Universal links (applinks)"
        case .webcredentials: "Password autofill (webcredentials)"
        case .appclips: "App Clips (appclips)"
        case .activitycontinuation: "Handoff (activitycontinuation)"
        }
    }

    /// What a link of this service is called on `platform`. Android has one kind of link, its App
    /// Links (`handle_all_urls`), stored under `applinks`: "Universal links" is Apple's word for it.
    public func label(on platform: Platform) -> String {
        switch platform {
        case .apple: label
        case .android: "App Links (handle_all_urls)"
        }
    }

    public static func < (lhs: Service, rhs: Service) -> Bool { lhs.rawValue < rhs.rawValue }
}
