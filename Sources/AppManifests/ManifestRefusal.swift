/// Why an app's entitlements or manifest cannot be used: every problem found, each with the line it
/// is on. A refused file registers nothing, so an import is never half done.
public struct ManifestRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    public var problems: [ManifestProblem]

    public init(_ problems: [ManifestProblem]) {
        self.problems = problems
    }

    init(line: Int?, _ reason: String, code: String? = nil) {
        problems = [ManifestProblem(line: line, reason: reason, code: code)]
    }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}

/// One reason to refuse a file.
public struct ManifestProblem: Hashable, Sendable, Codable, CustomStringConvertible {
    /// 1-based; nil where the format has no lines (binary property lists) or the problem is the
    /// whole file (an empty file, a missing key).
    public var line: Int?
    /// One sentence: what is wrong and what to write instead.
    public var reason: String
    /// The finding code of aasa-spec.md §15.3 when the problem is an entitlement rule
    /// (`entitlement-port`, …); nil for syntax and structure.
    public var code: String?

    public var description: String { line.map { "line \($0): \(reason)" } ?? reason }
}
