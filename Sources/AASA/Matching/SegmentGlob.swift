/// Matcher for patterns without variables: the literal pieces between stars.
///
/// Anchored glob matching with only `*` and `?` needs no backtracking: the first piece must sit at
/// the start, the last at the end, and each middle piece can take its leftmost place, because a later
/// place never leaves more room for the pieces after it. So `*a*a*a…*b` costs one pass, and a plain
/// literal, prefix (`/buy/*`) or suffix (`*/checkout`) pattern is one comparison. A class, so that
/// passing a compiled pattern around costs one reference count, not one per array.
final class SegmentGlob: Sendable {
    /// The piece before the first star (the whole pattern when there is no star).
    let prefix: GlobPiece
    /// Pieces between stars, in order; none is empty.
    let middles: [GlobPiece]
    /// The piece after the last star.
    let suffix: GlobPiece
    let hasStar: Bool

    /// nil when the tokens hold a variable; those need the automaton.
    init?(_ tokens: [PatternToken]) {
        var pieces: [[UInt32]] = [[]]
        // Stored properties are set after the scan, so a nil return leaves nothing half-built.
        for token in tokens {
            switch token {
            case .unit(let unit): pieces[pieces.count - 1].append(unit)
            case .anyOne: pieces[pieces.count - 1].append(PatternUnit.anyOne)
            case .star: pieces.append([])
            case .alternatives, .undefined: return nil
            }
        }
        hasStar = pieces.count > 1
        prefix = GlobPiece(pieces[0])
        suffix = GlobPiece(hasStar ? pieces[pieces.count - 1] : [])
        middles = hasStar ? pieces[1..<(pieces.count - 1)].filter { !$0.isEmpty }.map(GlobPiece.init) : []
    }

    func matches<Input: MatchUnits>(_ input: Input, folding: Bool) -> Bool {
        let base = input.startIndex
        let count = input.count
        if !hasStar {
            return count == prefix.count && prefix.matches(input, at: base, folding: folding)
        }
        var low = prefix.count
        let high = count - suffix.count
        guard low <= high,
              prefix.matches(input, at: base, folding: folding),
              suffix.matches(input, at: base + high, folding: folding) else { return false }
        for index in middles.indices {
            guard let found = Self.find(middles[index], in: input, from: low, to: high, folding: folding) else { return false }
            low = found + middles[index].count
        }
        return true
    }

    /// Leftmost start of `piece` inside input[from..<to], as offsets from the input's start.
    private static func find<Input: MatchUnits>(_ piece: GlobPiece, in input: Input, from: Int, to: Int, folding: Bool) -> Int? {
        var start = from
        while start + piece.count <= to {
            if piece.matches(input, at: input.startIndex + start, folding: folding) { return start }
            start += 1
        }
        return nil
    }
}
