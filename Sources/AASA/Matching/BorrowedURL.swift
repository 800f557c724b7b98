import Vocabulary

/// A URL's components as views of its own UTF-8 bytes: the common case of `decide(url:appID:)`,
/// which then allocates nothing per URL.
///
/// Exact only where the bytes are already what rules compare: printable ASCII (`URLByteSplit`), a
/// canonical path that is a stretch of the URL itself, and, when some rule compares decoded text, no
/// `%` (so decoded and encoded text are the same bytes). Everything else goes through `PreparedURL`.
/// Valid only while the buffer it was made from is.
struct BorrowedURL: MatchSubject {
    let canonicalPath: UnsafeBufferPointer<UInt8>
    let rawQuery: UnsafeBufferPointer<UInt8>
    let rawFragment: UnsafeBufferPointer<UInt8>

    /// The canonical path of a URL whose path is empty (`https://example.com?x`).
    private static let root: StaticString = "/"

    init?(_ bytes: UnsafeBufferPointer<UInt8>, _ split: URLByteSplit, decoding: Bool) {
        if decoding && split.hasPercent { return nil }
        // Canonical form (PathNormalization): one leading slash, no trailing ones. When the path starts
        // with slashes, the last of the leading run followed by the trimmed body is exactly that form.
        var start = split.path.lowerBound
        var end = split.path.upperBound
        while start < end, bytes[start] == UInt8(ascii: "/") { start += 1 }
        while end > start, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        if start > split.path.lowerBound {
            canonicalPath = UnsafeBufferPointer(rebasing: bytes[(start - 1)..<end])
        } else if start == end {
            canonicalPath = UnsafeBufferPointer(start: Self.root.utf8Start, count: 1)
        } else {
            // A path without a leading slash (`https:x`, a bare `x`) needs one added: rare, copy it.
            return nil
        }
        rawQuery = UnsafeBufferPointer(rebasing: bytes[split.query])
        rawFragment = UnsafeBufferPointer(rebasing: bytes[split.fragment])
    }

    // Encoded and decoded text are the same bytes here (see the type's comment).
    func path(encoded: Bool) -> UnsafeBufferPointer<UInt8> { canonicalPath }
    func query(encoded: Bool) -> UnsafeBufferPointer<UInt8> { rawQuery }
    func fragment(encoded: Bool) -> UnsafeBufferPointer<UInt8> { rawFragment }

    /// Walks the `&`-separated items in place, with `PreparedURL`'s reading: empty items skipped, an
    /// item without `=` has the empty value, names compared decoded.
    func everyValue(ofItem name: [UInt8], encoded: Bool, passes test: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool? {
        var seen = false
        var itemStart = 0
        let count = rawQuery.count
        while itemStart < count {
            var itemEnd = itemStart
            var equals = -1
            while itemEnd < count, rawQuery[itemEnd] != UInt8(ascii: "&") {
                if equals < 0, rawQuery[itemEnd] == UInt8(ascii: "=") { equals = itemEnd }
                itemEnd += 1
            }
            if itemEnd > itemStart {
                let nameEnd = equals < 0 ? itemEnd : equals
                let valueStart = equals < 0 ? itemEnd : equals + 1
                if PercentDecoding.decodes(rawQuery[itemStart..<nameEnd], to: name) {
                    seen = true
                    if !test(UnsafeBufferPointer(rebasing: rawQuery[valueStart..<itemEnd])) { return false }
                }
            }
            itemStart = itemEnd + 1
        }
        return seen ? true : nil
    }
}
