import Vocabulary

/// Collects findings up to a cap, so a 10 MB file full of mistakes costs bounded memory; past the
/// cap it only counts, and `finish()` adds one finding of the `truncation` kind.
package struct FindingCollector: Sendable {
    package static let limit = 1_000

    package private(set) var findings: [Finding] = []
    package private(set) var dropped = 0
    /// Each association format names its own "more findings were not listed" code.
    private let truncation: FindingDefinition

    package init(truncation: FindingDefinition) {
        self.truncation = truncation
    }

    package mutating func add(_ finding: Finding) {
        if findings.count < Self.limit { findings.append(finding) } else { dropped += 1 }
    }

    package mutating func add(contentsOf more: [Finding]) {
        for finding in more { add(finding) }
    }

    package func finish() -> [Finding] {
        guard dropped > 0 else { return findings }
        return findings + [truncation.finding(at: nil,
            "\(dropped) more findings were not listed; fix the ones above and validate again.")]
    }
}

/// Turns a `TextPosition` and a JSON pointer into a `SourceLocation` for people.
package struct SourceText: Sendable {
    package let bytes: [UInt8]

    package init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    package func location(_ pointer: String, _ position: TextPosition) -> SourceLocation {
        SourceLocation(pointer: pointer, line: position.line, column: position.column)
    }
}
