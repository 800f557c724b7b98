/// A one-line progress bar for terminals (`[#####-----]  50/100`), redrawn in place with `\r`.
public struct ProgressBar: Sendable {
    public var total: Int
    public var width: Int

    public init(total: Int, width: Int = 30) {
        self.total = max(total, 0)
        self.width = max(width, 1)
    }

    public func line(done: Int) -> String {
        let clamped = min(max(done, 0), total)
        let filled = total == 0 ? width : clamped * width / total
        let digits = String(total).count
        let count = String(clamped)
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] "
            + String(repeating: " ", count: max(digits - count.count, 0)) + count + "/" + String(total)
    }
}
