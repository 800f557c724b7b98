import Monitor
import Store

/// `GET /api/v1/status`: every domain as `aasa-monitor status --json` prints it (one renderer,
/// `DomainStatus.json`), so `status --server` reads it back and prints what a local `status` prints.
enum StatusAPI {
    static func read(_ c: RequestContext, store: any DomainStore) throws -> WebResponse {
        _ = try APIRequest.query(c, [])
        return .json(APIResponses.htmlSafe(Array(DomainStatus.json(try store.domainStatuses()).utf8)))
    }
}
