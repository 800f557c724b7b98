import AssetLinks
import Testing

/// The compiled matcher against the naive reference, on seeded random patterns, inputs and rule lists.
@Suite struct MatcherPropertyTests {
    static let patternAlphabet = Array("/ab.*?\\=%".utf16)
    static let inputAlphabet = Array("/ab.*?\\=".utf16)

    static func random(_ alphabet: [UInt16], maxLength: Int, _ rng: inout SplitMix64) -> [UInt16] {
        (0..<Int.random(in: 0...maxLength, using: &rng)).map { _ in alphabet.randomElement(using: &rng) ?? 0 }
    }

    @Test func patternsAgreeWithTheReference() {
        var rng = SplitMix64(seed: 0xA55E7_11AC5)
        var disagreements: [String] = []
        for _ in 0..<20_000 {
            let pattern = String(decoding: Self.random(Self.patternAlphabet, maxLength: 7, &rng), as: UTF16.self)
            let input = Self.random(Self.inputAlphabet, maxLength: 10, &rng)
            let expected = ReferenceMatcher.matches(pattern, input)
            if DynamicPattern(pattern).matches(input) != expected, disagreements.count < 10 {
                disagreements.append("\(pattern) on \(String(decoding: input, as: UTF16.self)): reference \(expected)")
            }
        }
        #expect(disagreements == [])
    }

    @Test func knownShapes() {
        let cases: [(String, String, Bool)] = [
            ("/p/*/print", "/p/12/print", true), ("/p/*/print", "/p/12/v2/print", false),
            ("*-x", "a-b-x", false), ("*-x", "a-x", true), ("?*", "", false), ("?*", "a", true),
            ("*", "", true), ("/a*", "/a", true), ("/a.b", "/aXb", false), ("*?", "ab", false), ("*?", "a.", true),
            ("/a?c", "/abc", true), ("/a?c", "/ac", false), ("a**b", "ax.*b", true), ("\\*", "\\x", true),
        ]
        for (pattern, input, expected) in cases {
            #expect(DynamicPattern(pattern).matches(Array(input.utf16)) == expected, "\(pattern) on \(input)")
            #expect(ReferenceMatcher.matches(pattern, Array(input.utf16)) == expected, "reference: \(pattern) on \(input)")
        }
    }

    static func randomRules(_ rng: inout SplitMix64) -> [DynamicRule] {
        let paths = ["*", "/a/*", "/a/*/b", "/b", "/?*", "*/b", "/a", "/a*"]
        return (0..<Int.random(in: 1...6, using: &rng)).map { _ in
            var rule = DynamicRule()
            rule.path = paths.randomElement(using: &rng)
            if Int.random(in: 0..<4, using: &rng) == 0 { rule.path = nil }
            if Int.random(in: 0..<3, using: &rng) == 0 { rule.query = [QueryEntry(name: "q", value: ["*", "?*", "1", "a*"].randomElement(using: &rng) ?? "*")] }
            if Int.random(in: 0..<4, using: &rng) == 0 { rule.fragment = ["top", "*", "t?p"].randomElement(using: &rng) }
            rule.exclude = Bool.random(using: &rng)
            return rule
        }
    }

    static func randomURL(_ rng: inout SplitMix64) -> String {
        var url = "https://h.example" + String(decoding: random(Array("/ab".utf16), maxLength: 8, &rng), as: UTF16.self)
        if Bool.random(using: &rng) { url += "?" + ["q=1", "q=", "x=1&q=a", "q", "q=ab;r=1", "%71=1"].randomElement(using: &rng)! }
        if Int.random(in: 0..<3, using: &rng) == 0 { url += "#" + ["top", "Top", "tip", ""].randomElement(using: &rng)! }
        return url
    }

    @Test func ruleListsAgreeWithTheReferenceAndDecideAgreesWithExplain() {
        var rng = SplitMix64(seed: 20_261_124)
        for _ in 0..<5_000 {
            let rules = Self.randomRules(&rng)
            let set = DynamicRuleSet(rules)
            let url = Self.randomURL(&rng)
            let parsed = AndroidURL(url)
            let decided = set.decide(parsed)
            #expect(decided == ReferenceMatcher.decide(rules, url: url), "\(url) under \(rules.map(\.text))")
            let explained = set.explain(parsed)
            #expect(explained.outcome == decided)
            if case .noMatch = decided {
                #expect(explained.decidingRule == nil)
                if let closest = explained.closestRule { #expect(explained.failingCheck != nil && !explained.trace[closest].matched) }
            } else {
                #expect(explained.decidingRule != nil && explained.trace.last?.matched == true)
            }
        }
    }
}
