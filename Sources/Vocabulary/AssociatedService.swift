/// The Associated Domains services an app claims a domain for and whose app IDs an operator can
/// require (aasa-spec.md §4, §13): applinks and the `apps` services. Shared by the entitlements
/// reader, the expectations and the pages, so one word names a service from the file to the column.
public enum AssociatedService: String, Hashable, Sendable, Codable, CodingKeyRepresentable, CaseIterable, Comparable {
    case applinks, webcredentials, appclips, activitycontinuation

    public static func < (lhs: AssociatedService, rhs: AssociatedService) -> Bool { lhs.rawValue < rhs.rawValue }
}
