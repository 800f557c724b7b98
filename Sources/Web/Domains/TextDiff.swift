/// A line diff for showing two versions of a file, with unchanged runs collapsed to some context.
public enum TextDiff {
    public enum Op: Sendable, Equatable {
        case same(String), added(String), removed(String)
        /// Unchanged lines left out.
        case skipped(Int)
    }

    /// Longest-common-subsequence over lines after trimming the common head and tail. The quadratic
    /// middle is bounded: past `maxCells`, the middle is shown as removed-then-added.
    public static func diff(_ old: [String], _ new: [String], context: Int = 3, maxCells: Int = 4_000_000) -> [Op] {
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
              old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        let a = Array(old[prefix..<(old.count - suffix)]), b = Array(new[prefix..<(new.count - suffix)])
        var middle: [Op] = []
        if a.count * b.count <= maxCells {
            let w = b.count + 1
            var table = [Int32](repeating: 0, count: (a.count + 1) * w)
            if !a.isEmpty && !b.isEmpty {
                for i in stride(from: a.count - 1, through: 0, by: -1) {
                    for j in stride(from: b.count - 1, through: 0, by: -1) {
                        table[i * w + j] = a[i] == b[j] ? table[(i + 1) * w + j + 1] + 1
                            : max(table[(i + 1) * w + j], table[i * w + j + 1])
                    }
                }
            }
            var i = 0, j = 0
            while i < a.count || j < b.count {
                if i < a.count, j < b.count, a[i] == b[j] { middle.append(.same(a[i])); i += 1; j += 1 }
                // Removals before additions, as people read a change: old line, then its replacement.
                else if i < a.count, j == b.count || table[(i + 1) * w + j] >= table[i * w + j + 1] { middle.append(.removed(a[i])); i += 1 }
                else { middle.append(.added(b[j])); j += 1 }
            }
        } else {
            middle = a.map { .removed($0) } + b.map { .added($0) }
        }
        let all: [Op] = old[..<prefix].map { .same($0) } + middle + old[(old.count - suffix)...].map { .same($0) }
        return collapse(all, context: context)
    }

    static func collapse(_ ops: [Op], context: Int) -> [Op] {
        let changed = ops.indices.filter { if case .same = ops[$0] { return false } else { return true } }
        guard !changed.isEmpty else { return ops.isEmpty ? [] : [.skipped(ops.count)] }
        var keep = [Bool](repeating: false, count: ops.count)
        for c in changed { for k in max(0, c - context)...min(ops.count - 1, c + context) { keep[k] = true } }
        var out: [Op] = []
        var skipped = 0
        for (k, op) in ops.enumerated() {
            if keep[k] {
                if skipped > 0 { out.append(.skipped(skipped)); skipped = 0 }
                out.append(op)
            } else {
                skipped += 1
            }
        }
        if skipped > 0 { out.append(.skipped(skipped)) }
        return out
    }

    public static func render(_ ops: [Op]) -> HTML {
        var out: HTML = "<div class=\"diff\" role=\"region\" aria-label=\"Text diff\">"
        for op in ops {
            switch op {
            case .same(let s): out.append("<div>  \(s)</div>")
            case .added(let s): out.append("<div class=\"add\">+ \(s)</div>")
            case .removed(let s): out.append("<div class=\"del\">- \(s)</div>")
            case .skipped(let n): out.append("<div class=\"skip\">  … \(n) unchanged line\(n == 1 ? "" : "s")</div>")
            }
        }
        out.append("</div>")
        return out
    }
}
