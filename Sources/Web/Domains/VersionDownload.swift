import Foundation
import Store

/// A stored association file by its SHA-256, as text: the page's "raw" link and the API's
/// `/api/v1/versions/:hash` are the same response, so both routes point here.
enum VersionDownload {
    static func raw(_ c: RequestContext, store: any CheckStore) throws -> WebResponse {
        guard let hash = c.parameters["hash"], hash.count == 64, hash.allSatisfy(\.isHexDigit),
              let body = try store.versionBody(VersionKey(.apple, sha256: hash.lowercased())) else {
            throw WebError.notFound("No stored file with this hash.")
        }
        // Served as text so a browser shows it and never runs it, whatever it contains.
        return WebResponse(status: 200, headers: [("Content-Type", "text/plain; charset=utf-8"), ("X-Content-Type-Options", "nosniff"),
                                                  ("Cache-Control", "private, max-age=31536000, immutable")], body: body)
    }
}
