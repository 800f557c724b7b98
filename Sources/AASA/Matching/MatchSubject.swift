import Foundation

/// Text a compiled glob is matched against: UTF-8 bytes of encoded URL text read in place, or decoded
/// code points. Matchers are generic over it so the hot path of `decide(url:appID:)` can compare the
/// URL's own bytes without first widening them into a new array.
protocol MatchUnits: RandomAccessCollection where Element: FixedWidthInteger & UnsignedInteger, Index == Int {
    /// Whether the units at `offset` are exactly `bytes` (ASCII), when this form can answer as a block;
    /// nil to compare unit by unit.
    func equalsBytes(_ bytes: [UInt8], at offset: Int) -> Bool?
}

extension Array: MatchUnits where Element == UInt32 {
    func equalsBytes(_ bytes: [UInt8], at offset: Int) -> Bool? { nil }
}

extension UnsafeBufferPointer: MatchUnits where Element == UInt8 {
    @inline(__always)
    func equalsBytes(_ bytes: [UInt8], at offset: Int) -> Bool? {
        guard let base = baseAddress else { return bytes.isEmpty }
        return bytes.withUnsafeBufferPointer { piece in
            guard let start = piece.baseAddress else { return true }
            return memcmp(base + offset, start, piece.count) == 0
        }
    }
}

/// A URL as rules see it (aasa-spec.md §12 step 5): each component in its encoded and decoded form,
/// and the values of named query items. Implemented by `PreparedURL` (owned arrays, any URL) and
/// `BorrowedURL` (views of the URL's bytes, the common case).
protocol MatchSubject {
    associatedtype Units: MatchUnits
    /// The path in canonical slash form (`PathNormalization`).
    func path(encoded: Bool) -> Units
    func query(encoded: Bool) -> Units
    func fragment(encoded: Bool) -> Units
    /// Whether every value of the query items whose decoded name is `name` passes `test`; nil when no
    /// item has that name (§8.5 rules 3–4: the caller then tests the empty string).
    func everyValue(ofItem name: [UInt8], encoded: Bool, passes test: (Units) -> Bool) -> Bool?
}
