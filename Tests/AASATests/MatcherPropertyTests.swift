import Vocabulary
import Testing
@testable import AASA

/// The fast matcher against the naive reference, and `decide` against `explain`, on random inputs.
struct MatcherPropertyTests {
    typealias B = DocumentBuilder

    static let patternPieces = ["a", "b", "A", "/", "*", "?", "$(v)", "$(digit)", "é", "%41", "$(w)", "1"]
    static let textPieces = ["a", "b", "A", "B", "/", "1", "%41", "%C3%A9", "c"]
    static let variables: [String: [String]] = ["v": ["a", "ab", "b*", "", "?/"], "w": ["A?", "1"]]

    static func random(_ pieces: [String], maxCount: Int, _ rng: inout SeededGenerator) -> String {
        (0..<Int.random(in: 0...maxCount, using: &rng)).map { _ in pieces.randomElement(using: &rng) ?? "" }.joined()
    }

    @Test func globAgreesWithReference() {
        var rng = SeededGenerator(state: 0xA5A5)
        let variables = SubstitutionVariables(Self.variables.map {
            SubstitutionVariable(name: $0.key, values: $0.value, location: SourceLocation(pointer: ""))
        })
        let tokenizer = PatternTokenizer(variables: variables)
        // Half the rounds use a tiny alphabet heavy in stars, where overlapping pieces are common.
        let dense = ["a", "b", "*", "*", "?", "ab"]
        for round in 0..<12000 {
            let pattern = round % 2 == 0 ? Self.random(Self.patternPieces, maxCount: 6, &rng)
                : Self.random(dense, maxCount: 7, &rng)
            let text = round % 2 == 0 ? Self.random(Self.textPieces, maxCount: 7, &rng)
                : Self.random(["a", "b", "ab", "ba"], maxCount: 6, &rng)
            let insensitive = round % 3 == 0
            let fast = GlobMatcher(tokenizer.tokens(pattern, folded: insensitive))
                .matches(PatternUnit.units(text), folding: insensitive)
            let reference = ReferenceMatcher.matches(pattern, text, insensitive: insensitive, variables: Self.variables)
            #expect(fast == reference, "pattern \(pattern) text \(text) insensitive \(insensitive)")
            if fast != reference { return }
        }
    }

    static func randomRule(_ rng: inout SeededGenerator) -> Rule {
        func maybe<T>(_ make: () -> T) -> T? { Bool.random(using: &rng) ? make() : nil }
        let path = maybe { Self.random(Self.patternPieces, maxCount: 5, &rng) }
        let query: QuerySpec? = switch Int.random(in: 0..<5, using: &rng) {
        case 0: .string(Self.random(["a", "=", "&", "*", "?", "1"], maxCount: 4, &rng))
        case 1: .items([QueryItemPattern(name: ["a", "b"].randomElement(using: &rng) ?? "a",
                                         pattern: Self.random(["1", "*", "?", "a", "$(digit)"], maxCount: 3, &rng))])
        case 2: .voided
        default: nil
        }
        let fragment = maybe { Self.random(["x", "*", "?", "A"], maxCount: 3, &rng) }
        return B.rule(path, query: query, fragment: fragment, exclude: maybe { Bool.random(using: &rng) },
                      caseSensitive: maybe { Bool.random(using: &rng) }, percentEncoded: maybe { Bool.random(using: &rng) })
    }

    static func randomDocument(_ rng: inout SeededGenerator) -> AASADocument {
        let apps = ["T.one", "T.two", "T.three"]
        let entries = (0..<Int.random(in: 1...3, using: &rng)).map { _ -> DetailEntry in
            let legacy = Int.random(in: 0..<5, using: &rng) == 0
            let rules = legacy
                ? B.legacy((0..<Int.random(in: 1...3, using: &rng)).map { _ in
                    (Bool.random(using: &rng) ? "NOT " : "") + Self.random(Self.patternPieces, maxCount: 4, &rng)
                })
                : (0..<Int.random(in: 0...3, using: &rng)).map { _ in randomRule(&rng) }
            let defaults = Bool.random(using: &rng) ? nil
                : RuleSettings(caseSensitive: Bool.random(using: &rng), percentEncoded: Bool.random(using: &rng))
            return B.entry(Array(apps.shuffled(using: &rng).prefix(Int.random(in: 1...2, using: &rng))), rules,
                           defaults: defaults, source: legacy ? .paths : .components)
        }
        let defaults = Bool.random(using: &rng) ? nil : RuleSettings(exclude: Bool.random(using: &rng) ? true : nil,
                                                                      caseSensitive: Bool.random(using: &rng))
        return B.document(entries, defaults: defaults, variables: ["v": Self.variables["v"] ?? [], "w": Self.variables["w"] ?? []])
    }

    static func randomURL(_ rng: inout SeededGenerator) -> String {
        var url = "https://example.com" + (Bool.random(using: &rng) ? "/" : "") + Self.random(Self.textPieces, maxCount: 5, &rng)
        if Bool.random(using: &rng) { url += "?" + Self.random(["a=1", "b=2", "a", "&", "a=A", "b=%41", "=", "x"], maxCount: 3, &rng) }
        if Bool.random(using: &rng) { url += "#" + Self.random(["x", "A", "y", "%41"], maxCount: 3, &rng) }
        return url
    }

    @Test func documentsAgreeWithReference() {
        var rng = SeededGenerator(state: 0x5EED)
        for _ in 0..<1500 {
            let doc = Self.randomDocument(&rng)
            let compiled = CompiledDocument(doc)
            for _ in 0..<4 {
                let url = Self.randomURL(&rng)
                for app in ["T.one", "T.two", "T.three"] {
                    let fast = compiled.decide(url: url, appID: app).name
                    let reference = ReferenceMatcher.decide(doc, url: url, appID: app)
                    #expect(fast == reference, "url \(url) app \(app) doc \(doc)")
                    if fast != reference { return }
                }
            }
        }
    }

    @Test func decideNeverDisagreesWithExplain() {
        var rng = SeededGenerator(state: 0xE4A1)
        for _ in 0..<800 {
            let compiled = CompiledDocument(Self.randomDocument(&rng))
            for _ in 0..<4 {
                let url = Self.randomURL(&rng)
                let decisions = compiled.decisions(url: url)
                for app in ["T.one", "T.two", "T.three", "T.absent"] {
                    let decision = compiled.decide(url: url, appID: app)
                    let explanation = compiled.explain(url: url, appID: app)
                    #expect(decision == explanation.decision, "url \(url) app \(app)")
                    #expect(explanation.decidingRule.map { $0.matched && $0.checks.allSatisfy(\.matched) } ?? true)
                    if let shared = decisions.first(where: { $0.appID == app }) {
                        #expect(shared.decision == decision, "decisions(url:) agrees with decide")
                    }
                    if decision != explanation.decision { return }
                }
            }
        }
    }

    /// URLs that stress the in-place byte path of `decide(url:appID:)`: slash runs, missing paths, escapes
    /// (valid, invalid, of `/`, of non-ASCII), raw bytes a browser would escape, other schemes, odd queries.
    static func randomRawURL(_ rng: inout SeededGenerator) -> String {
        let starts = ["https://example.com", "HTTPS://example.com", "http://example.com:8080", "ftp://example.com",
                      "https:", "", "https://u@example.com", "mailto:", "https://example.com//", "1https://x"]
        let pieces = ["/", "//", "a", "A", "b", "%41", "%2F", "%2f", "%", "%z", "%C3%A9", "é", " ", "?", "#", "&", "=",
                      "a=1", "b=%41", "%61=1", "1"]
        return (starts.randomElement(using: &rng) ?? "") + Self.random(pieces, maxCount: 8, &rng)
    }

    @Test func bytePathAgreesWithGeneralPath() {
        var rng = SeededGenerator(state: 0xB17E)
        for _ in 0..<1500 {
            let compiled = CompiledDocument(Self.randomDocument(&rng))
            for _ in 0..<6 {
                let url = Self.randomRawURL(&rng)
                let parts = URLParts(parsing: url)
                let decisions = compiled.decisions(url: url)
                for app in ["T.one", "T.two", "T.three"] {
                    let fast = compiled.decide(url: url, appID: app)
                    let general = compiled.decide(parts: parts, appID: app)
                    #expect(fast == general, "url \(url) app \(app)")
                    #expect(decisions.first(where: { $0.appID == app })?.decision ?? .noMatch == fast, "url \(url) app \(app)")
                    if fast != general { return }
                }
            }
        }
    }

    @Test func adversarialPatternsStayLinear() {
        // `*a*a*…*b` on 512 `a`s: a backtracking matcher needs about 2^n steps; this must answer at once.
        let pattern = String(repeating: "*a", count: 40) + "*b"
        let url = "https://example.com/" + String(repeating: "a", count: 512)
        #expect(!B.matches(url, B.rule(pattern)))
        #expect(B.matches(url + "b", B.rule(pattern)))
        // The same shape through the automaton (a variable forces it).
        let viaAutomaton = String(repeating: "*$(v)", count: 40) + "*b"
        #expect(!B.matches(url, B.rule(viaAutomaton), variables: ["v": ["a"]]))
        #expect(B.matches(url + "b", B.rule(viaAutomaton), variables: ["v": ["a"]]))
    }
}
