/// A URL's components in the forms rules compare against, computed once per URL and shared by every
/// rule of a document: encoded text for `percentEncoded: true`, decoded code points for `false`
/// (only when some rule needs them), with the path in the canonical slash form of `PathNormalization`.
struct PreparedURL {
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

    /// The hot path of `decide(url:appID:)`: splits the URL's UTF-8 bytes straight into units, without
    /// building intermediate strings. nil when the URL is not http(s). URLs holding bytes a browser
    /// would escape (raw Unicode, spaces) take the general path through `URLParts`.
    static func fast(_ url: String, decoding: Bool, splittingQuery: Bool) -> PreparedURL? {
        var url = url
        return url.withUTF8 { buffer -> PreparedURL? in
            guard let split = URLByteSplit(buffer) else {
                let parts = URLParts(parsing: String(decoding: buffer, as: UTF8.self))
                return parts.canBeUniversalLink ? PreparedURL(parts, decoding: decoding, splittingQuery: splittingQuery) : nil
            }
            guard split.isUniversalLinkScheme else { return nil }
            return PreparedURL(path: buffer[split.path], query: buffer[split.query], fragment: buffer[split.fragment],
                               decoding: decoding, splittingQuery: splittingQuery)
        }
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
}

/// Byte ranges of a URL's parts, found without allocating. nil when the URL needs the general parser
/// (bytes a browser would escape before sending).
struct URLByteSplit {
    var isUniversalLinkScheme = true
    var path: Range<Int> = 0..<0
    var query: Range<Int> = 0..<0
    var fragment: Range<Int> = 0..<0

    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        // Anything outside printable ASCII (including surrounding whitespace) goes the general way.
        for byte in bytes where byte <= 0x20 || byte >= 0x7F { return nil }
        let end = bytes.count
        var index = 0
        var colon = -1
        if end > 0, (bytes[0] | 0x20) >= UInt8(ascii: "a"), (bytes[0] | 0x20) <= UInt8(ascii: "z") {
            var cursor = 1
            while cursor < end {
                let byte = bytes[cursor]
                if byte == UInt8(ascii: ":") { colon = cursor; break }
                let lower = byte | 0x20
                guard (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")) || (byte >= 0x30 && byte <= 0x39)
                    || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") else { break }
                cursor += 1
            }
        }
        if colon > 0 {
            isUniversalLinkScheme = Self.isHTTP(bytes, colon)
            index = colon + 1
            if index + 1 < end, bytes[index] == UInt8(ascii: "/"), bytes[index + 1] == UInt8(ascii: "/") {
                index += 2
                while index < end, bytes[index] != UInt8(ascii: "/"), bytes[index] != UInt8(ascii: "?"),
                      bytes[index] != UInt8(ascii: "#") { index += 1 }
            }
        }
        var pathEnd = index
        while pathEnd < end, bytes[pathEnd] != UInt8(ascii: "?"), bytes[pathEnd] != UInt8(ascii: "#") { pathEnd += 1 }
        path = index..<pathEnd
        var fragmentStart = pathEnd
        if pathEnd < end, bytes[pathEnd] == UInt8(ascii: "?") {
            var queryEnd = pathEnd + 1
            while queryEnd < end, bytes[queryEnd] != UInt8(ascii: "#") { queryEnd += 1 }
            query = (pathEnd + 1)..<queryEnd
            fragmentStart = queryEnd
        }
        if fragmentStart < end { fragment = (fragmentStart + 1)..<end }
    }

    /// Scheme bytes 0..<colon are `http` or `https`, in any case.
    private static func isHTTP(_ bytes: UnsafeBufferPointer<UInt8>, _ colon: Int) -> Bool {
        guard colon == 4 || colon == 5 else { return false }
        let http: [UInt8] = [UInt8(ascii: "h"), UInt8(ascii: "t"), UInt8(ascii: "t"), UInt8(ascii: "p"), UInt8(ascii: "s")]
        for index in 0..<colon where bytes[index] | 0x20 != http[index] { return false }
        return true
    }
}
