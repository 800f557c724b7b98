/// "Did you mean" for misspelled keys: the known key at the smallest edit distance (optimal string
/// alignment, so a swapped pair of letters costs one), compared without case because `casesensitive`
/// and `appId` are the commonest slips.
package enum KeySuggestion {
    package static func nearest(to key: String, among known: [String]) -> String? {
        let folded = Array(key.lowercased().unicodeScalars)
        // Keys longer than any known key by far are not typos; also bounds the work per key.
        guard folded.count <= 40 else { return nil }
        var best: (key: String, distance: Int)?
        for candidate in known {
            let distance = editDistance(folded, Array(candidate.lowercased().unicodeScalars))
            if let current = best, current.distance <= distance { continue }
            best = (candidate, distance)
        }
        guard let best else { return nil }
        // One edit for short names (a single character key like "/" has no near misses worth naming),
        // two for longer ones, three for long ones like "substitutionVariables".
        let allowed = best.key.count <= 2 ? 0 : best.key.count <= 5 ? 1 : best.key.count <= 12 ? 2 : 3
        return best.distance <= allowed ? best.key : nil
    }

    package static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
