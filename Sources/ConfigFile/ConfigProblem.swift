/// Something wrong in a config file, with where it is. A file with any problem is refused whole,
/// so every problem is reported at once and a person fixes them all in one round.
public struct ConfigProblem: Error, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// 1-based; 0 when the problem is the file as a whole (too large, not UTF-8 at all).
    public var line: Int
    public var message: String

    public init(line: Int, _ message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { line > 0 ? "line \(line): \(message)" : message }

    public static func < (a: ConfigProblem, b: ConfigProblem) -> Bool { (a.line, a.message) < (b.line, b.message) }
}

/// Why a config file changed nothing: every problem found, in the order of the file.
public struct ConfigRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    public var problems: [ConfigProblem]

    public init(_ problems: [ConfigProblem]) {
        self.problems = problems.sorted()
    }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
