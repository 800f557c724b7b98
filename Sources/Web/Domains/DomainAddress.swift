import Fetch
import Store
import Vocabulary

/// A domain named in a URL path by its id or by its host — `/domains/42`, `/domains/example.com`,
/// `/api/v1/domains/bücher.example` — since scripts and people know hosts, not ids.
enum DomainAddress {
    /// Digits are an id. Anything else is read by `HostName`'s rules (Unicode or Punycode, any case,
    /// a trailing dot, a `*.` prefix) and looked up by its ASCII form; what is no host name finds
    /// nothing.
    static func record(_ segment: String?, in db: any DomainStore) throws -> DomainRecord? {
        guard let segment, !segment.isEmpty else { return nil }
        if segment.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            guard let id = Int64(segment), id > 0 else { return nil }
            return try db.domain(id: id)
        }
        guard let host = try? HostName(segment) else { return nil }
        return try db.domain(host: host.ascii)
    }
}
