import Store
import Synchronization

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

/// Where this process serves the dashboard, known once its socket is bound (`serve --port 0` learns
/// its port only then). Links in messages fall back to it when no address is configured, so they
/// lead to the port the dashboard really answers on rather than to a fixed :8080.
public final class ListeningAddress: Sendable {
    private let base = Mutex<String?>(nil)

    public init() {}

    /// Records the bound address. A wildcard bind (0.0.0.0, ::) has no address to open: a browser
    /// on this machine reaches it at loopback, which is what the fallback could always promise.
    public func bound(host: String, port: Int) {
        base.withLock { $0 = Self.baseURL(host: host, port: port) }
    }

    /// Nil until `bound` is called.
    public var baseURL: String? { base.withLock { $0 } }

    static func baseURL(host: String, port: Int) -> String {
        let reachable = switch host {
        case "0.0.0.0", "": "127.0.0.1"
        case "::", "[::]": "::1"
        default: host
        }
        let bracketed = reachable.contains(":") && !reachable.hasPrefix("[") ? "[\(reachable)]" : reachable
        return "http://\(bracketed):\(port)"
    }
}
