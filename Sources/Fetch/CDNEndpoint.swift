import Vocabulary

/// Apple's CDN endpoint for association files, `BASE/HOST`, checked once: https, port 443.
struct CDNEndpoint: Sendable {
    let base: String
    let host: String

    init(base: String) throws(FetchSetupError) {
        var text = base
        while text.hasSuffix("/") { text.removeLast() }
        guard text.lowercased().hasPrefix("https://") else {
            throw FetchSetupError(message: "the CDN base \(base) must be an https:// URL")
        }
        let rest = text.dropFirst("https://".count)
        let authority = rest.prefix { $0 != "/" }
        guard !authority.isEmpty, !authority.contains("@") else {
            throw FetchSetupError(message: "the CDN base \(base) has no host")
        }
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
            guard authority[authority.index(after: colon)...] == "443" else {
                throw FetchSetupError(message: "the CDN base \(base) must use port 443 (send it elsewhere with --connect-to)")
            }
            host = String(authority[..<colon]).lowercased()
        } else {
            host = String(authority).lowercased()
        }
        self.base = "https://\(host)\(rest.dropFirst(authority.count))"
    }

    func url(for host: HostName) -> String { "\(base)/\(host.ascii)" }
}

/// A configuration the fetcher cannot work with (bad CDN base, unreadable CA file).
public struct FetchSetupError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
