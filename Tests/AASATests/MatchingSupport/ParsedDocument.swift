@testable import AASA

/// Parses JSON text with the project's parser; test input is always a readable object.
func parsedDocument(_ json: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> AASADocument {
    let result = AASAParser.parse(Array(json.utf8))
    guard let document = result.document else {
        Issue.record("test JSON did not parse: \(result.findings.map(\.message))", sourceLocation: sourceLocation)
        return AASADocument()
    }
    return document
}

import Testing
