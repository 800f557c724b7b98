import Vocabulary
import Foundation
import Store

/// The opt-in status badge and the domain list export.
enum EcosystemHandlers {
    /// `/badge/HOST.svg`: only for domains whose owner published it; others are 404 so the badge
    /// does not reveal which hosts are registered.
    static func badge(_ c: RequestContext, store: any DomainStore) throws -> WebResponse {
        guard let file = c.parameters["file"], file.hasSuffix(".svg") else { throw WebError.notFound("No badge here.") }
        let host = String(file.dropLast(4)).lowercased()
        guard let d = try store.domain(host: host), d.badgeEnabled else { throw WebError.notFound("No badge for this host.") }
        let state = DomainState(verdict: d.lastVerdict)
        let (text, color): (String, String) = switch state {
        case .passing: ("passing", "#15803d")
        case .warning: ("warnings", "#a16207")
        case .failing: ("failing", "#b91c1c")
        case .checking, .never: ("pending", "#6b7280")
        }
        let left = 34, right = 8 + text.count * 7
        let svg: HTML = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(left + right)" height="20" role="img" aria-label="AASA: \(text)">\
            <title>AASA: \(text)</title><rect width="\(left)" height="20" fill="#555"/>\
            <rect x="\(left)" width="\(right)" height="20" fill="\(color)"/>\
            <g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">\
            <text x="6" y="14">AASA</text><text x="\(left + 4)" y="14">\(text)</text></g></svg>
            """
        return WebResponse(status: 200, headers: [("Content-Type", "image/svg+xml"), ("Cache-Control", "max-age=300")], body: svg.utf8Bytes)
    }

    static func exportCSV(_ c: RequestContext, store: any DomainStore) throws -> WebResponse {
        func field(_ s: String) -> String {
            // Quote always, double quotes inside, and defuse spreadsheet formulas.
            var v = s
            if let f = v.first, "=+-@".contains(f) { v = "'" + v }
            return "\"" + v.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        var out = "host,display_name,wildcard,state,interval_minutes,last_checked_at,last_changed_at,app_ids,watched_urls\r\n"
        let iso = ISO8601DateFormatter()
        for (d, apps, watched) in try store.exportDomains() {
            let state = DomainState(verdict: d.lastVerdict, checking: d.isChecking(now: c.now)).rawValue
            out += [field(d.host), field(d.displayName), d.wildcard ? "true" : "false", state, String(d.intervalSeconds / 60),
                    d.lastCheckedAt.map { iso.string(from: $0) } ?? "", d.lastChangedAt.map { iso.string(from: $0) } ?? "",
                    String(apps), String(watched)].joined(separator: ",") + "\r\n"
        }
        return WebResponse(status: 200, headers: [("Content-Type", "text/csv; charset=utf-8"),
                                                  ("Content-Disposition", "attachment; filename=\"domains.csv\"")], body: Array(out.utf8))
    }

    static func exportJSON(_ c: RequestContext, store: any DomainStore) throws -> WebResponse {
        let list = try store.exportDomains().map { DomainAPI.json($0.record, now: c.now) }
        return APIResponses.json(["domains": list])
            .with(header: "Content-Disposition", "attachment; filename=\"domains.json\"")
    }
}
