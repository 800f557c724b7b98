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

/// The bytes a document was read from, to turn a `TextPosition` into a line:column for people.
struct SourceText: Sendable {
    let bytes: [UInt8]

    /// Columns count code points, not bytes, so they agree with what an editor shows.
    func location(_ pointer: String, _ position: TextPosition) -> SourceLocation {
        var column = 1
        var index = position.lineStart
        let end = min(position.offset, bytes.count)
        while index < end {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return SourceLocation(pointer: pointer, line: position.line, column: column)
    }
}
