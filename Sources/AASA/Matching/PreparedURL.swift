import Vocabulary

/// A URL's components in the forms rules compare against, computed once per URL and shared by every
/// rule of a document: encoded text for `percentEncoded: true`, decoded code points for `false`
/// (only when some rule needs them), with the path in the canonical slash form of `PathNormalization`.
struct PreparedURL: MatchSubject {
    struct QueryItem {
        /// Names are compared decoded, as `NSURLQueryItem` reports them (aasa-spec.md §8.5; whether
        /// Apple decodes them under `percentEncoded: true` is §17 item 4, this is the Foundation reading).
        /// The decoded name's UTF-8 bytes: comparing bytes spares a string per item.
        var name: [UInt8]
        var encodedValue: [UInt32]
        var decodedValue: [UInt32]
    }

    let encodedPath: [UInt32]
    let decodedPath: [UInt32]
    let encodedQuery: [UInt32]
    let decodedQuery: [UInt32]
    let encodedFragment: [UInt32]
    let decodedFragment: [UInt32]
    let items: [QueryItem]

    init(_ parts: URLParts, decoding: Bool, splittingQuery: Bool) {
        self.init(path: Array(parts.path.utf8)[...], query: Array((parts.query ?? "").utf8)[...],
                  fragment: Array((parts.fragment ?? "").utf8)[...], decoding: decoding, splittingQuery: splittingQuery)
    }

    init<Bytes: BidirectionalCollection>(path: Bytes, query: Bytes, fragment: Bytes, decoding: Bool, splittingQuery: Bool)
    where Bytes.Element == UInt8 {
        encodedPath = Self.canonicalUnits(path)
        encodedQuery = Self.units(query)
        encodedFragment = Self.units(fragment)
        if decoding {
            // Decode first, then normalise: a decoded `%2F` is a real slash (§8.2).
            decodedPath = PathNormalization.canonicalPath(PercentDecoding.decode(bytes: path))
            decodedQuery = PercentDecoding.decode(bytes: query)
            decodedFragment = PercentDecoding.decode(bytes: fragment)
        } else {
            decodedPath = encodedPath
            decodedQuery = encodedQuery
            decodedFragment = encodedFragment
        }
        items = splittingQuery ? Self.split(query, decoding: decoding) : []
    }

    private static func units<Bytes: Collection>(_ bytes: Bytes) -> [UInt32] where Bytes.Element == UInt8 {
        if bytes.isEmpty { return [] }
        var out: [UInt32] = []
        out.reserveCapacity(bytes.count)
        for byte in bytes { out.append(UInt32(byte)) }
        return out
    }

    /// `PathNormalization.canonicalPath` fused with the widening to units: one allocation.
    private static func canonicalUnits<Bytes: BidirectionalCollection>(_ bytes: Bytes) -> [UInt32] where Bytes.Element == UInt8 {
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start != end, bytes[start] == UInt8(ascii: "/") { start = bytes.index(after: start) }
        while end != start, bytes[bytes.index(before: end)] == UInt8(ascii: "/") { end = bytes.index(before: end) }
        let body = bytes[start..<end]
        var out: [UInt32] = []
        out.reserveCapacity(body.count + 1)
        out.append(PatternUnit.slash)
        for byte in body { out.append(UInt32(byte)) }
        return out
    }

    /// `name=value` items split on `&`; an item without `=` has the empty value (§8.5 rule 1). `+`
    /// stays a plus sign, as in Foundation. Empty items (`a=1&&b=2`) name nothing and are skipped.
    private static func split<Bytes: Collection>(_ query: Bytes, decoding: Bool) -> [QueryItem] where Bytes.Element == UInt8 {
        var items: [QueryItem] = []
        for raw in query.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let name: Bytes.SubSequence
            let value: Bytes.SubSequence
            if let equals = raw.firstIndex(of: UInt8(ascii: "=")) {
                name = raw[..<equals]
                value = raw[raw.index(after: equals)...]
            } else {
                name = raw
                value = raw[raw.endIndex...]
            }
            let encoded = units(value)
            items.append(QueryItem(name: PercentDecoding.decodedBytes(name), encodedValue: encoded,
                                   decodedValue: decoding ? PercentDecoding.decode(bytes: value) : encoded))
        }
        return items
    }

    func path(encoded: Bool) -> [UInt32] { encoded ? encodedPath : decodedPath }
    func query(encoded: Bool) -> [UInt32] { encoded ? encodedQuery : decodedQuery }
    func fragment(encoded: Bool) -> [UInt32] { encoded ? encodedFragment : decodedFragment }

    func everyValue(ofItem name: [UInt8], encoded: Bool, passes test: ([UInt32]) -> Bool) -> Bool? {
        var seen = false
        for item in items where item.name == name {
            seen = true
            if !test(encoded ? item.encodedValue : item.decodedValue) { return false }
        }
        return seen ? true : nil
    }
}
