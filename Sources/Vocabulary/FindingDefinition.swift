/// The fixed facts about one finding code: its default severity, which OS versions it concerns and
/// where the rule comes from. Every finding this module emits is made through a definition listed in
/// `FindingCatalog.all`, which is what docs/findings.md documents (a test keeps the two equal).
public struct FindingDefinition: Hashable, Sendable {
    public let code: String
    public let severity: Severity
    /// The OS versions where the problem bites (aasa-spec.md §14), in words.
    public let affects: String
    /// One line: when the finding is reported.
    public let condition: String
    /// Source tags of aasa-spec.md §0, or "ours" for checks the spec does not name.
    public let source: String
    /// Which part of the code reports it: "parser", "validator", "transport", "entitlement", "check-evaluation".
    public let producer: String

    public init(_ code: String, _ severity: Severity, affects: String, condition: String, source: String,
                producer: String) {
        self.code = code
        self.severity = severity
        self.affects = affects
        self.condition = condition
        self.source = source
        self.producer = producer
    }

    /// A finding of this kind. `severity` overrides the default where the spec makes it depend on
    /// context (an unknown key is info at the top level and a warning elsewhere).
    public func finding(at location: SourceLocation?, _ message: String, hint: String? = nil,
                        severity: Severity? = nil) -> Finding {
        Finding(code: code, severity: severity ?? self.severity, location: location, message: message,
                hint: hint, affects: affects)
    }
}
