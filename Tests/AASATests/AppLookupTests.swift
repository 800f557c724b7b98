import Testing
@testable import AASA

/// `decide` finds an app's rules the same way whether the file lists few apps (compared by bytes
/// where that is exact) or many (a dictionary): by `String` equality.
struct AppLookupTests {
    typealias B = DocumentBuilder

    static func document(apps: [String]) -> CompiledDocument {
        CompiledDocument(B.document([B.entry(apps, [B.rule("/x")])]))
    }

    @Test(arguments: [1, 12])
    func lookupAgreesWithStringEquality(appCount: Int) {
        let listed = ["T.K", "T.caf\u{E9}", "T.a"] + (0..<appCount).map { "T.filler\($0)" }
        let compiled = Self.document(apps: listed)
        // Canonically equivalent spellings with other bytes (Kelvin sign, decomposed é), near misses,
        // a prefix, a longer name and the empty name.
        let asked = ["T.K", "T.\u{212A}", "T.cafe\u{301}", "T.caf\u{E9}", "T.k", "T.", "T.a", "T.ab", "", "T.filler0"]
        for appID in asked {
            let expected: MatchDecision = listed.contains(appID) ? .match(entry: 0, rule: 0) : .noMatch
            #expect(compiled.decide(url: "https://example.com/x", appID: appID) == expected, "\(appID.unicodeScalars.map(\.value))")
        }
    }
}
