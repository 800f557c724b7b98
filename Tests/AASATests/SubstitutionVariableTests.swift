import Testing
@testable import AASA

/// `$(…)` substitution variables (aasa-spec.md §10).
struct SubstitutionVariableTests {
    typealias B = DocumentBuilder

    @Test(arguments: [
        PatternCase("/$(alpha)", "https://example.com/q", true),
        PatternCase("/$(alpha)", "https://example.com/Q", true),
        PatternCase("/$(alpha)", "https://example.com/1", false),
        PatternCase("/$(alpha)", "https://example.com/ab", false, "one value is one character"),
        PatternCase("/$(upper)", "https://example.com/Q", true),
        PatternCase("/$(upper)", "https://example.com/q", false),
        PatternCase("/$(lower)", "https://example.com/q", true),
        PatternCase("/$(lower)", "https://example.com/Q", false),
        PatternCase("/$(alnum)$(alnum)", "https://example.com/a1", true),
        PatternCase("/$(alnum)", "https://example.com/-", false),
        PatternCase("/$(digit)$(digit)", "https://example.com/42", true),
        PatternCase("/$(digit)", "https://example.com/x", false),
        PatternCase("/$(xdigit)$(xdigit)", "https://example.com/fA", true),
        PatternCase("/$(xdigit)", "https://example.com/g", false),
        PatternCase("/$(region)/*", "https://example.com/GB/x", true),
        PatternCase("/$(region)/*", "https://example.com/US/x", true),
        PatternCase("/$(region)/*", "https://example.com/UK/x", false, "UK is not ISO 3166-1"),
        PatternCase("/$(region)/*", "https://example.com/gb/x", false, "region codes are upper case"),
        PatternCase("/$(lang)/*", "https://example.com/en/x", true),
        PatternCase("/$(lang)/*", "https://example.com/fil/x", true, "three-letter codes exist"),
        PatternCase("/$(lang)/*", "https://example.com/xx/x", false),
        PatternCase("/$(lang)_$(region)/", "https://example.com/fr_CA/", true),
        PatternCase("/$(undefined)", "https://example.com/x", false, "undefined matches nothing"),
        PatternCase("/$(undefined)*", "https://example.com/", false),
        PatternCase("/a$b", "https://example.com/a$b", true, "lone $ is literal"),
        PatternCase("/a$(b", "https://example.com/a$(b", true, "unterminated $( is literal"),
    ])
    func builtIns(_ row: PatternCase) {
        #expect(B.matches(row.url, B.rule(row.pattern)) == row.matches, "\(row.testDescription)")
    }

    @Test func builtInsFoldWhenCaseInsensitive() {
        #expect(B.matches("https://example.com/q", B.rule("/$(upper)", caseSensitive: false)))
        #expect(B.matches("https://example.com/gb/x", B.rule("/$(region)/*", caseSensitive: false)))
    }

    @Test func userDefinedVariables() {
        let food: KeyValuePairs<String, [String]> = ["food": ["burrito", "pizza", "sushi", "samosa"]]
        #expect(B.matches("https://example.com/pizza/", B.rule("/$(food)/"), variables: food))
        #expect(!B.matches("https://example.com/pasta/", B.rule("/$(food)/"), variables: food))
        #expect(!B.matches("https://example.com/Pizza/", B.rule("/$(food)/"), variables: food))
        #expect(B.matches("https://example.com/Pizza/", B.rule("/$(food)/", caseSensitive: false), variables: food),
                "values fold too")
        #expect(!B.matches("https://example.com/pizza/", B.rule("/$(Food)/"), variables: food), "names are case-sensitive")
        #expect(!B.matches("https://example.com/x", B.rule("/$(empty)"), variables: ["empty": []]), "no values, no match")
    }

    @Test func valuesMayHoldWildcardsButNotVariables() {
        let vars: KeyValuePairs<String, [String]> = ["section": ["news/*", "item-??"], "nested": ["$(section)"]]
        #expect(B.matches("https://example.com/news/a/b", B.rule("/$(section)"), variables: vars))
        #expect(B.matches("https://example.com/item-42", B.rule("/$(section)"), variables: vars))
        #expect(!B.matches("https://example.com/item-421", B.rule("/$(section)"), variables: vars))
        #expect(B.matches("https://example.com/$(section)", B.rule("/$(nested)"), variables: vars), "no recursion: literal")
        #expect(!B.matches("https://example.com/news/x", B.rule("/$(nested)"), variables: vars))
    }

    @Test func userDefinitionShadowsBuiltIn() {
        #expect(B.matches("https://example.com/UK", B.rule("/$(region)"), variables: ["region": ["UK"]]))
        #expect(!B.matches("https://example.com/GB", B.rule("/$(region)"), variables: ["region": ["UK"]]))
    }

    @Test func hugeVariableListsStayCheap() {
        let values = (0..<20_000).map { "value\($0)" }
        let compiled = B.compiled([B.rule("/$(big)/$(big)/*")], variables: ["big": values])
        #expect(compiled.decide(url: "https://example.com/value19999/value0/x", appID: B.app) == .match(entry: 0, rule: 0))
        #expect(compiled.decide(url: "https://example.com/value20000/value0/x", appID: B.app) == .noMatch)
    }

    @Test func variablesInQueryAndFragment() {
        #expect(B.matches("https://example.com/?lang=fr", B.rule(query: B.items(["lang": "$(lang)"]))))
        #expect(!B.matches("https://example.com/?lang=zz", B.rule(query: B.items(["lang": "$(lang)"]))))
        #expect(B.matches("https://example.com/#US", B.rule(fragment: "$(region)")))
    }
}
