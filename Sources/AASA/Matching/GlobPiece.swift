/// A literal stretch of a pattern between stars, classified once at compile time so the common case
/// (plain ASCII text, no `?`) compares as a block of bytes instead of unit by unit.
struct GlobPiece: Sendable {
    /// Units, with `PatternUnit.anyOne` for `?`.
    let units: [UInt32]
    /// The same text as bytes when it is plain ASCII without `?`: encoded URL bytes can then be
    /// compared with `memcmp`. nil otherwise.
    let asciiBytes: [UInt8]?

    init(_ units: [UInt32]) {
        self.units = units
        asciiBytes = units.allSatisfy({ $0 < 0x80 }) ? units.map { UInt8($0) } : nil
    }

    var count: Int { units.count }
    var isEmpty: Bool { units.isEmpty }

    /// Whether the piece matches input[offset...] (an absolute index; the caller checked the length).
    /// `folding`: compare the input case-folded (the piece was folded when compiled).
    @inline(__always)
    func matches<Input: MatchUnits>(_ input: Input, at offset: Int, folding: Bool) -> Bool {
        if !folding, let asciiBytes, let same = input.equalsBytes(asciiBytes, at: offset) { return same }
        var index = 0
        let count = units.count
        while index < count {
            let want = units[index]
            if want != PatternUnit.anyOne {
                let raw = UInt32(truncatingIfNeeded: input[offset &+ index])
                if (folding ? CaseFolding.fold(raw) : raw) != want { return false }
            }
            index &+= 1
        }
        return true
    }
}
