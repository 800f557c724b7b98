import Foundation
import Glibc

/// The names this server answers first-run setup under. DNS rebinding makes a stranger's page talk
/// to a local install under the stranger's own host name, so setup answers only to loopback names,
/// IP literals (a rebinding attack always arrives under a name), the dashboard's configured address
/// and the extra hosts the operator lists (`AASA_MONITOR_ALLOWED_HOSTS`).
struct HostAllowList: Sendable {
    /// Lower-cased host names, without ports.
    let extra: Set<String>

    init(_ extra: [String] = []) {
        self.extra = Set(extra.compactMap { HostAllowList.hostName($0) })
    }

    /// `hostHeader` as the request sent it (maybe with a port); `baseURLHost` from the dashboard's address setting.
    func allows(_ hostHeader: String?, baseURLHost: String? = nil) -> Bool {
        // Browsers always send Host; a client without one is not a page driven by DNS rebinding.
        guard let hostHeader else { return true }
        guard let host = HostAllowList.hostName(hostHeader) else { return false }
        if host == "localhost" || host.hasSuffix(".localhost") || HostAllowList.isIPLiteral(host) { return true }
        if let baseURLHost, HostAllowList.hostName(baseURLHost) == host { return true }
        return extra.contains(host)
    }

    /// The host part of a Host header or a listed name: lower-cased, without port, brackets or trailing dot.
    static func hostName(_ text: String) -> String? {
        var s = Substring(text.trimmingCharacters(in: .whitespaces).lowercased())
        if s.hasPrefix("[") {
            guard let close = s.firstIndex(of: "]") else { return nil }
            s = s[s.index(after: s.startIndex)..<close]
        } else if s.filter({ $0 == ":" }).count == 1, let colon = s.firstIndex(of: ":") {
            s = s[..<colon]
        }
        while s.hasSuffix(".") { s = s.dropLast() }
        return s.isEmpty ? nil : String(s)
    }

    static func isIPLiteral(_ host: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}
