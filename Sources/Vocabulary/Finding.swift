/// Where a finding points: a JSON pointer into the document and, when the parser knows it,
/// the line and column of the value in the raw bytes (1-based).
public struct SourceLocation: Hashable, Sendable, Codable, CustomStringConvertible {
    public var pointer: String
    public var line: Int?
    public var column: Int?

    public init(pointer: String, line: Int? = nil, column: Int? = nil) {
        self.pointer = pointer
        self.line = line
        self.column = column
    }

    public var description: String {
        if let line, let column { return "\(pointer.isEmpty ? "/" : pointer) (line \(line):\(column))" }
        return pointer.isEmpty ? "/" : pointer
    }
}

/// Severity policy of aasa-spec.md §15: error (cannot work), warning (probably not as intended),
/// deprecation (works, but Apple called it obsolete), info (worth knowing).
public enum Severity: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
    case error, warning, deprecation, info

    /// Lower rank is more severe, so sorting puts errors first.
    public var rank: Int {
        switch self {
        case .error: 0
        case .warning: 1
        case .deprecation: 2
        case .info: 3
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// A problem (or a fact worth knowing) about a file or its transport. Findings are data:
/// returned, stored and shown, never thrown. `code` is stable and kebab-case (aasa-spec.md §15).
public struct Finding: Hashable, Sendable, Codable {
    public var code: String
    public var severity: Severity
    public var location: SourceLocation?
    public var message: String
    public var hint: String?
    /// The OS versions where the problem bites, in words ("iOS 13+, macOS 10.15+").
    public var affects: String?

    public init(code: String, severity: Severity, location: SourceLocation? = nil, message: String,
                hint: String? = nil, affects: String? = nil) {
        self.code = code
        self.severity = severity
        self.location = location
        self.message = message
        self.hint = hint
        self.affects = affects
    }
}
