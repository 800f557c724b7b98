import AASA
import Vocabulary
import Foundation
import Testing

/// docs/findings.md is the public list of codes: it must name exactly the codes the module can emit,
/// with the same severity.
@Suite struct FindingDocsTests {
    static func documentedCodes() throws -> [String: String] {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/findings.md")
        // Only the Apple section: assetlinks.json's codes have a section (and a test) of their own.
        return FindingDocsTable.codes(in: try String(contentsOf: docs, encoding: .utf8), section: "Apple")
    }

    @Test func docsListEveryCodeWithItsSeverity() throws {
        let documented = try Self.documentedCodes()
        let catalog = Dictionary(uniqueKeysWithValues: FindingCatalog.all.map { ($0.code, $0.severity.rawValue) })
        #expect(Set(catalog.keys).subtracting(documented.keys).sorted() == [], "codes missing from docs/findings.md")
        #expect(Set(documented.keys).subtracting(catalog.keys).sorted() == [], "documented codes the module never emits")
        for (code, severity) in catalog {
            #expect(documented[code] == severity, "severity of \(code)")
        }
    }
}
