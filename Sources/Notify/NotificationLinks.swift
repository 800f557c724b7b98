import Store

/// Links back to the dashboard, so a message leads to the page that explains it.
/// The base URL is configured (env AASA_MONITOR_BASE_URL or the settings), since the process
/// cannot know under which name people reach it.
public struct NotificationLinks: Sendable, Equatable {
    public var baseURL: String

    public init(baseURL: String) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
    }

    public func domainPage(_ event: NotificationEvent) -> String {
        // A test notification is about no real domain: lead to the delivery log instead.
        if event.kind == .test { return alertsPage() }
        // Hosts are stored as ASCII (punycode), so they are safe in a path as they are.
        return "\(baseURL)/domains/\(event.domainHost)"
    }

    public func alertsPage() -> String { "\(baseURL)/alerts" }
}
