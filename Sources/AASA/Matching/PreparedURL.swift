/// A URL's components in the forms rules compare against, computed once per URL and shared by every
/// rule of a document: encoded text for `percentEncoded: true`, decoded code points for `false`
/// (only when some rule needs them), with the path in the canonical slash form of `PathNormalization`.
struct PreparedURL {
    struct QueryItem {
        /// Names are compared decoded, as `NSURLQueryItem` reports them (aasa-spec.md §8.5; whether
        /// Apple decodes them under `percentEncoded: true` is §17 item 4, this is the Foundation reading).
        var name: String
        var encodedValue: [UInt32]
        var decodedValue: [UInt32]
    }

    let parts: URLParts
    let encodedPath: [UInt32]
    let decodedPath: [UInt32]
    let encodedQuery: [UInt32]
    let decodedQuery: [UInt32]
    let encodedFragment: [UInt32]
    let decodedFragment: [UInt32]
    let items: [QueryItem]

    init(_ parts: URLParts, decoding: Bool, splittingQuery: Bool) {
        self.parts = parts
        let query = parts.query ?? ""
        let fragment = parts.fragment ?? ""
        encodedPath = PathNormalization.canonicalPath(PatternUnit.units(parts.path.utf8))
        encodedQuery = PatternUnit.units(query.utf8)
        encodedFragment = PatternUnit.units(fragment.utf8)
        if decoding {
            // Decode first, then normalise: a decoded `%2F` is a real slash (§8.2).
            decodedPath = PathNormalization.canonicalPath(PercentDecoding.decode(parts.path))
            decodedQuery = PercentDecoding.decode(query)
            decodedFragment = PercentDecoding.decode(fragment)
        } else {
            decodedPath = encodedPath
            decodedQuery = encodedQuery
            decodedFragment = encodedFragment
        }
        items = splittingQuery ? Self.split(query, decoding: decoding) : []
    }

    /// `name=value` items split on `&`; an item without `=` has the empty value (§8.5 rule 1). `+`
    /// stays a plus sign, as in Foundation. Empty items (`a=1&&b=2`) name nothing and are skipped.
    private static func split(_ query: String, decoding: Bool) -> [QueryItem] {
        var items: [QueryItem] = []
        for raw in query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let nameBytes: Substring.UTF8View.SubSequence
            let valueBytes: Substring.UTF8View.SubSequence
            if let equals = raw.firstIndex(of: UInt8(ascii: "=")) {
                nameBytes = raw[..<equals]
                valueBytes = raw[raw.index(after: equals)...]
            } else {
                nameBytes = raw
                valueBytes = raw[raw.endIndex...]
            }
            let valueText = String(decoding: valueBytes, as: UTF8.self)
            let encoded = PatternUnit.units(valueBytes)
            items.append(QueryItem(name: PercentDecoding.decodeToString(String(decoding: nameBytes, as: UTF8.self)),
                                   encodedValue: encoded,
                                   decodedValue: decoding ? PercentDecoding.decode(valueText) : encoded))
        }
        return items
    }

    func path(encoded: Bool) -> [UInt32] { encoded ? encodedPath : decodedPath }
    func query(encoded: Bool) -> [UInt32] { encoded ? encodedQuery : decodedQuery }
    func fragment(encoded: Bool) -> [UInt32] { encoded ? encodedFragment : decodedFragment }
}
