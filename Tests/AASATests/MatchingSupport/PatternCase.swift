/// One row of a table test: a pattern, a URL, whether the rule should match.
struct PatternCase: Sendable, CustomTestStringConvertible {
    var pattern: String
    var url: String
    var matches: Bool
    var note: String = ""

    init(_ pattern: String, _ url: String, _ matches: Bool, _ note: String = "") {
        self.pattern = pattern
        self.url = url
        self.matches = matches
        self.note = note
    }

    var testDescription: String { "\(pattern) vs \(url) → \(matches) \(note)" }
}

import Testing
