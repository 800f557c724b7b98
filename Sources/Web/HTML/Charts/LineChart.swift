/// A time series chart as inline SVG, rendered on the server so it needs no script and obeys the
/// page's CSP. Colours come from the stylesheet (classes), so it follows the light/dark theme.
public struct LineChart: Sendable {
    public struct Point: Sendable {
        /// Seconds since 1970.
        public var time: Int64
        /// nil marks a gap (a check that produced no value, such as a failed fetch).
        public var value: Double?
        /// The range behind `value` when the point summarises several checks (a roll-up or a
        /// thinned bucket): drawn as a band around the line.
        public var low: Double?
        public var high: Double?
    }

    public var title: String
    public var unit: String
    public var points: [Point]
    /// A horizontal line worth seeing, such as "30 days" on the certificate chart.
    public var threshold: Double?
    public var width = 640
    public var height = 200

    public init(title: String, unit: String, points: [Point], threshold: Double? = nil) {
        self.title = title
        self.unit = unit
        self.points = points.sorted { $0.time < $1.time }
        self.threshold = threshold
    }

    public func svg() -> HTML {
        let values = points.compactMap(\.value) + points.compactMap { $0.value == nil ? nil : $0.high }
        guard let first = points.first, let last = points.last, !values.isEmpty else {
            return "<p class=\"muted chart-empty\">\(title): no data yet.</p>"
        }
        let left = 48, right = 12, top = 12, bottom = 28
        let plotW = width - left - right, plotH = height - top - bottom
        var lo = min(values.min() ?? 0, threshold ?? .infinity, 0)
        var hi = max(values.max() ?? 1, threshold ?? -.infinity)
        if hi - lo < 1e-9 { hi = lo + 1 }
        hi = LineChart.niceCeiling(hi)
        lo = lo < 0 ? -LineChart.niceCeiling(-lo) : lo
        let t0 = first.time, t1 = max(last.time, first.time + 1)
        func x(_ t: Int64) -> Int { left + Int(Double(t - t0) / Double(t1 - t0) * Double(plotW)) }
        func y(_ v: Double) -> Int { top + Int(((hi - v) / (hi - lo) * Double(plotH)).rounded()) }

        var grid: HTML = .empty
        for i in 0...4 {
            let v = lo + (hi - lo) * Double(i) / 4
            let gy = y(v)
            grid.append("<line class=\"grid\" x1=\"\(left)\" y1=\"\(gy)\" x2=\"\(left + plotW)\" y2=\"\(gy)\"/>")
            grid.append("<text class=\"axis\" x=\"\(left - 6)\" y=\"\(gy + 4)\" text-anchor=\"end\">\(LineChart.format(v))</text>")
        }
        // One polyline per run of values, so gaps stay visible.
        var lines: HTML = .empty
        var run = ""
        var dots: HTML = .empty
        for p in points {
            if let v = p.value {
                if !run.isEmpty { run += " " }
                run += "\(x(p.time)),\(y(v))"
            } else {
                if !run.isEmpty { lines.append("<polyline class=\"series\" points=\"\(run)\"/>") }
                run = ""
                dots.append("<line class=\"gap\" x1=\"\(x(p.time))\" y1=\"\(top)\" x2=\"\(x(p.time))\" y2=\"\(top + plotH)\"/>")
            }
        }
        if !run.isEmpty { lines.append("<polyline class=\"series\" points=\"\(run)\"/>") }
        let bands = band(x: x, y: y)
        if points.count == 1, let v = first.value {
            dots.append("<circle class=\"dot\" cx=\"\(x(first.time))\" cy=\"\(y(v))\" r=\"3\"/>")
        }
        var thresholdLine: HTML = .empty
        if let threshold {
            thresholdLine = "<line class=\"threshold\" x1=\"\(left)\" y1=\"\(y(threshold))\" x2=\"\(left + plotW)\" y2=\"\(y(threshold))\"/>"
        }
        let latest = last.value.map { LineChart.format($0) + " " + unit } ?? "no value"
        return """
            <figure class="chart"><figcaption>\(title) <span class="muted">(latest: \(latest))</span></figcaption>\
            <svg viewBox="0 0 \(width) \(height)" role="img" aria-label="\(title)" preserveAspectRatio="none">\
            \(grid)\(thresholdLine)\(bands)\(lines)\(dots)\
            <text class="axis" x="\(left)" y="\(height - 8)">\(DisplayTime.date(first.time))</text>\
            <text class="axis" x="\(left + plotW)" y="\(height - 8)" text-anchor="end">\(DisplayTime.date(last.time))</text>\
            </svg></figure>
            """
    }

    /// One polygon per run of valued points whose range is wider than a point: from each point's
    /// high forwards, then back along the lows.
    func band(x: (Int64) -> Int, y: (Double) -> Int) -> HTML {
        var out: HTML = .empty
        var run: [Point] = []
        func flush() {
            defer { run.removeAll() }
            guard run.count >= 2, run.contains(where: { ($0.high ?? 0) > ($0.low ?? 0) }) else { return }
            var coordinates = ""
            for p in run { coordinates += "\(x(p.time)),\(y(p.high ?? p.value ?? 0)) " }
            for p in run.reversed() { coordinates += "\(x(p.time)),\(y(p.low ?? p.value ?? 0)) " }
            out.append("<polygon class=\"band\" points=\"\(String(coordinates.dropLast()))\"/>")
        }
        for p in points {
            if p.value != nil { run.append(p) } else { flush() }
        }
        flush()
        return out
    }

    static func niceCeiling(_ v: Double) -> Double {
        guard v > 0 else { return 1 }
        var magnitude = 1.0
        while magnitude * 10 <= v { magnitude *= 10 }
        while magnitude > v { magnitude /= 10 }
        for m in [1.0, 2.0, 2.5, 5.0, 10.0] where m * magnitude >= v { return m * magnitude }
        return 10 * magnitude
    }

    /// Whole numbers when large, one decimal when small; no Foundation formatter per point.
    static func format(_ v: Double) -> String {
        if abs(v) >= 10 || v == v.rounded() { return String(Int(v.rounded())) }
        let tenths = Int((v * 10).rounded())
        return "\(tenths / 10).\(abs(tenths % 10))"
    }
}
