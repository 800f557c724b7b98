import Vocabulary
import AASA
import Foundation
import Testing

/// Every finding code has an input that must produce it; if a check breaks, its case fails.
@Suite struct FindingCodeTests {
    @Test(arguments: FindingCodeCase.all)
    func codeIsReported(_ testCase: FindingCodeCase) throws {
        let findings = try testCase.produce()
        let matching = findings.filter { $0.code == testCase.code }
        #expect(!matching.isEmpty, "expected \(testCase.code), got \(findings.map(\.code))")
        if let pointer = testCase.pointer {
            #expect(matching.contains { $0.location?.pointer == pointer },
                    "\(testCase.code) at \(matching.map { $0.location?.pointer ?? "nil" }), expected \(pointer)")
        }
        for finding in matching {
            #expect(!finding.message.isEmpty)
            // CheckEvaluation (fetch engineer) builds its own findings; the rest come from the catalog.
            if finding.producer != "check-evaluation" { #expect(finding.affects != nil, "\(finding.code)") }
            // The severity may only differ from the catalog where the spec makes it depend on context.
            let definition = try #require(FindingCatalog.definition(for: finding.code))
            if !["unknown-key", "entry-needs-ios13"].contains(finding.code) && finding.producer != "check-evaluation" {
                #expect(finding.severity == definition.severity, "\(finding.code)")
            }
        }
    }

    @Test func everyCatalogCodeHasACase() {
        let covered = Set(FindingCodeCase.all.map(\.code))
        let catalog = Set(FindingCatalog.all.map(\.code))
        #expect(catalog.subtracting(covered).sorted() == [], "codes without a test case")
        #expect(covered.subtracting(catalog).sorted() == [], "test cases for codes not in the catalog")
        #expect(catalog.count == FindingCatalog.all.count, "a code is listed twice")
    }

    @Test func codesAreKebabCase() {
        for definition in FindingCatalog.all {
            #expect(definition.code.allSatisfy { ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9") || $0 == "-" }, "\(definition.code)")
        }
    }
}

private extension Finding {
    var producer: String { FindingCatalog.definition(for: code)?.producer ?? "" }
}
