import Vocabulary

/// The finding kinds the JSON reader reports, named by the format being read: AASA and
/// assetlinks.json document the same syntax problems under codes of their own.
package struct JSONFindingKinds: Sendable {
    /// A syntax error (each one found; reading continues where it safely can).
    package var invalidJSON: FindingDefinition
    /// A string whose bytes are not valid UTF-8.
    package var invalidUTF8: FindingDefinition
    /// An object naming the same key twice.
    package var duplicateKey: FindingDefinition
    /// Arrays and objects nested deeper than `JSONReader.maxDepth`.
    package var nestingTooDeep: FindingDefinition
    /// What an empty body should have been, for the message ("… is a JSON object such as {…}").
    package var expectedDocument: String
    /// Code for "more findings were not listed".
    package var truncated: FindingDefinition

    package init(invalidJSON: FindingDefinition, invalidUTF8: FindingDefinition, duplicateKey: FindingDefinition,
                 nestingTooDeep: FindingDefinition, expectedDocument: String, truncated: FindingDefinition) {
        self.invalidJSON = invalidJSON
        self.invalidUTF8 = invalidUTF8
        self.duplicateKey = duplicateKey
        self.nestingTooDeep = nestingTooDeep
        self.expectedDocument = expectedDocument
        self.truncated = truncated
    }
}
