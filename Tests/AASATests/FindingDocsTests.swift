import AASA
import Foundation
import Testing

/// docs/findings.md is the public list of codes: it must name exactly the codes the module can emit,
/// with the same severity.
@Suite struct FindingDocsTests {
    static func documentedCodes() throws -> [String: String] {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/findings.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        var codes: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 3 else { continue }
            codes[cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = cells[2]
        }
        return codes
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
