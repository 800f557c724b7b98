/// The cheapest exact form of one URL for matching, chosen per URL: views of its bytes when they can
/// be compared as they are, owned arrays otherwise.
enum URLSubject {
    case borrowed(BorrowedURL)
    case prepared(PreparedURL)
    /// Not http(s): no rule is consulted (aasa-spec.md §12 step 1).
    case notUniversalLink

    /// `.borrowed` points into `bytes`: use it only while `bytes` is valid.
    init(_ bytes: UnsafeBufferPointer<UInt8>, decoding: Bool, splittingQuery: Bool) {
        guard let split = URLByteSplit(bytes) else {
            // Bytes a browser would escape: the general parser encodes them first.
            let parts = URLParts(parsing: String(decoding: bytes, as: UTF8.self))
            self = parts.canBeUniversalLink
                ? .prepared(PreparedURL(parts, decoding: decoding, splittingQuery: splittingQuery)) : .notUniversalLink
            return
        }
        if !split.isUniversalLinkScheme {
            self = .notUniversalLink
        } else if let borrowed = BorrowedURL(bytes, split, decoding: decoding) {
            self = .borrowed(borrowed)
        } else {
            self = .prepared(PreparedURL(path: bytes[split.path], query: bytes[split.query], fragment: bytes[split.fragment],
                                         decoding: decoding, splittingQuery: splittingQuery))
        }
    }
}
