/// Collects findings up to a cap, so a 10 MB file full of mistakes costs bounded memory; past the
/// cap it only counts, and `finish()` adds one `findings-truncated` finding.
struct FindingCollector: Sendable {
    static let limit = 1_000

    private(set) var findings: [Finding] = []
    private(set) var dropped = 0

    mutating func add(_ finding: Finding) {
        if findings.count < Self.limit { findings.append(finding) } else { dropped += 1 }
    }

    mutating func add(contentsOf more: [Finding]) {
        for finding in more { add(finding) }
    }

    func finish() -> [Finding] {
        guard dropped > 0 else { return findings }
        return findings + [FindingDefinition.findingsTruncated.finding(at: nil,
            "\(dropped) more findings were not listed; fix the ones above and validate again.")]
    }
}

/// Turns a `TextPosition` and a JSON pointer into a `SourceLocation` for people.
struct SourceText: Sendable {
    let bytes: [UInt8]

    func location(_ pointer: String, _ position: TextPosition) -> SourceLocation {
        SourceLocation(pointer: pointer, line: position.line, column: position.column)
    }
}
