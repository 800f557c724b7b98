import Vocabulary
import Foundation
import Store

/// The opt-in status badge and the domain list export (streamed: `DomainExport`).
enum EcosystemHandlers {
    /// `/badge/HOST.svg`: only for domains whose owner published it; others are 404 so the badge
    /// does not reveal which hosts are registered. It shows the domain's state — the worse of its
    /// watched platforms, unmet expectations included — labelled by what is watched (AASA,
    /// assetlinks, or app links for both); `?platform=apple|android` shows one platform's file by the
    /// latest check instead (404 for a platform the domain is not watched for).
    static func badge(_ c: RequestContext, store: any DomainStore) throws -> WebResponse {
        guard let file = c.parameters["file"], file.hasSuffix(".svg") else { throw WebError.notFound("No badge here.") }
        let host = String(file.dropLast(4)).lowercased()
        guard let d = try store.domain(host: host), d.badgeEnabled else { throw WebError.notFound("No badge for this host.") }
        let label: String, text: String, color: String
        if let typed = c.query["platform"] {
            guard let platform = Platform(rawValue: typed) else { throw WebError.badRequest("platform must be apple or android.", field: "platform") }
            guard d.platforms.watches(platform) else { throw WebError.notFound("This domain is not watched for \(platform.rawValue).") }
            label = platform == .apple ? "AASA" : "assetlinks"
            let verdicts = try store.platformVerdicts(domainID: d.id)
            if let verdict = platform == .apple ? verdicts.apple : verdicts.android {
                (text, color) = Self.badgeWords(DomainState(verdict: verdict))
            } else if d.lastCheckedAt == nil {
                (text, color) = Self.badgeWords(.never)
            } else {
                // Checked, and the platform does not count: no assetlinks.json and no Android app expected.
                (text, color) = ("not served", "#6b7280")
            }
        } else {
            label = switch d.platforms {
            case .apple: "AASA"
            case .android: "assetlinks"
            case .both: "app links"
            }
            (text, color) = Self.badgeWords(DomainState(verdict: d.lastVerdict))
        }
        let left = 8 + label.count * 7 - (label == "AASA" ? 2 : 0), right = 8 + text.count * 7
        let svg: HTML = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(left + right)" height="20" role="img" aria-label="\(label): \(text)">\
            <title>\(label): \(text)</title><rect width="\(left)" height="20" fill="#555"/>\
            <rect x="\(left)" width="\(right)" height="20" fill="\(color)"/>\
            <g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">\
            <text x="6" y="14">\(label)</text><text x="\(left + 4)" y="14">\(text)</text></g></svg>
            """
        return WebResponse(status: 200, headers: [("Content-Type", "image/svg+xml"), ("Cache-Control", "max-age=300")], body: svg.utf8Bytes)
    }

    static func badgeWords(_ state: DomainState) -> (text: String, color: String) {
        switch state {
        case .passing: ("passing", "#15803d")
        case .warning: ("warnings", "#a16207")
        case .failing: ("failing", "#b91c1c")
        case .checking, .never: ("pending", "#6b7280")
        }
    }

    /// Every domain as CSV, streamed in keyset batches (`DomainExport`).
    static func exportCSV(_ c: RequestContext, store: any DomainStore & Sendable) throws -> WebResponse {
        WebResponse(status: 200, headers: [("Content-Type", "text/csv; charset=utf-8"),
                                           ("Content-Disposition", "attachment; filename=\"domains.csv\"")],
                    stream: DomainExport(store: store, format: DomainExport.csv(now: c.now)))
    }

    /// Every domain as the API's JSON, streamed in keyset batches (`DomainExport`).
    static func exportJSON(_ c: RequestContext, store: any DomainStore & Sendable) throws -> WebResponse {
        WebResponse(status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store"),
                                           ("Content-Disposition", "attachment; filename=\"domains.json\"")],
                    stream: DomainExport(store: store, format: DomainExport.json(now: c.now)))
    }
}
