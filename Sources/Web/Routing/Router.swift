/// Method + path-pattern routing, built once at start-up and read-only afterwards.
///
/// Patterns are segments: literals (`domains`), parameters (`:id`) and a final catch-all (`*rest`).
/// A literal segment beats a parameter at the same position, so `/domains/new` wins over
/// `/domains/:id` regardless of registration order.
public struct Router<Handler: Sendable>: Sendable {
    enum Segment: Hashable, Sendable {
        case literal(String)
        case parameter(String)
        case rest(String)
    }

    struct Route: Sendable {
        let method: String
        let pattern: String
        let segments: [Segment]
        let handler: Handler
        /// Literal segments rank higher, so the most specific route is tried first.
        var specificity: Int {
            segments.reduce(0) { acc, s in
                if case .literal = s { return acc * 4 + 3 }
                if case .parameter = s { return acc * 4 + 2 }
                return acc * 4 + 1
            }
        }
    }

    public enum Match {
        case found(Handler, RouteParameters)
        /// The path exists, but not for this method; carries the methods that are allowed.
        case methodNotAllowed([String])
        case notFound
    }

    private var routes: [Route] = []

    public init() {}

    public mutating func add(_ method: String, _ pattern: String, _ handler: Handler) {
        let segments = Router.split(pattern).map { part -> Segment in
            if part.hasPrefix(":") { return .parameter(String(part.dropFirst())) }
            if part.hasPrefix("*") { return .rest(String(part.dropFirst())) }
            return .literal(String(part))
        }
        routes.append(Route(method: method, pattern: pattern, segments: segments, handler: handler))
        // Only patterns of equal length can both match a path (catch-alls aside), and among those
        // the one with a literal earlier wins; catch-alls are tried last.
        routes.sort { a, b in
            if a.hasRest != b.hasRest { return !a.hasRest }
            return a.specificity > b.specificity
        }
    }

    public func match(method: String, path: String) -> Match {
        let parts = Router.split(path)
        var allowed: [String] = []
        // HEAD is answered by the GET handler (the server drops the body).
        let wanted = method == "HEAD" ? "GET" : method
        for route in routes {
            guard let params = route.bind(parts) else { continue }
            if route.method == wanted { return .found(route.handler, params) }
            if !allowed.contains(route.method) { allowed.append(route.method) }
        }
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed)
    }

    static func split(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }
}

extension Router.Route {
    var hasRest: Bool {
        if case .rest = segments.last { return true }
        return false
    }

    func bind(_ parts: [Substring]) -> RouteParameters? {
        var params = RouteParameters()
        var i = 0
        for segment in segments {
            switch segment {
            case .literal(let lit):
                guard i < parts.count, parts[i] == lit else { return nil }
                i += 1
            case .parameter(let name):
                guard i < parts.count, let decoded = PercentEncoding.decode(parts[i]) else { return nil }
                params.values[name] = decoded
                i += 1
            case .rest(let name):
                let rest = parts[i...].map { PercentEncoding.decode($0) ?? String($0) }.joined(separator: "/")
                params.values[name] = rest
                return params
            }
        }
        return i == parts.count ? params : nil
    }
}

/// Values bound by `:name` and `*name` segments, percent-decoded.
public struct RouteParameters: Sendable {
    public var values: [String: String] = [:]
    public init() {}
    public subscript(_ name: String) -> String? { values[name] }
    /// A positive integer id, or nil when the segment is not one.
    public func id(_ name: String) -> Int64? {
        guard let s = values[name], let v = Int64(s), v > 0 else { return nil }
        return v
    }
}
