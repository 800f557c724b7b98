/// A tiny response-time trend for the overview table: an SVG polyline scaled to its own min/max.
/// Coordinates are integers in a fixed view box so rendering 50 rows costs no float formatting.
public enum Sparkline {
    public static let width = 120
    public static let height = 24

    /// `values` oldest first; nil is a failed check (drawn as a red tick on the baseline).
    public static func svg(_ values: [Double?], label: String) -> HTML {
        let numbers = values.compactMap { $0 }
        guard values.count >= 2, let lo = numbers.min(), let hi = numbers.max() else {
            return "<span class=\"spark-empty\" title=\"no data yet\">–</span>"
        }
        let span = max(hi - lo, 1e-9)
        let step = Double(width - 2) / Double(values.count - 1)
        var points = ""
        var failures: HTML = .empty
        for (i, v) in values.enumerated() {
            let x = 1 + Int((Double(i) * step).rounded())
            guard let v else {
                failures.append("<line class=\"spark-fail\" x1=\"\(x)\" y1=\"\(height - 6)\" x2=\"\(x)\" y2=\"\(height)\"/>")
                continue
            }
            let y = 2 + Int(((hi - v) / span * Double(height - 4)).rounded())
            if !points.isEmpty { points += " " }
            points += "\(x),\(y)"
        }
        return """
            <svg class="spark" viewBox="0 0 \(width) \(height)" width="\(width)" height="\(height)" role="img" \
            aria-label="\(label)"><polyline points="\(points)"/>\(failures)</svg>
            """
    }
}
