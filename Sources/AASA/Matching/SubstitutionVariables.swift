/// The values each `$(name)` can take: the file's `substitutionVariables` and the built-ins
/// (aasa-spec.md §10).
struct SubstitutionVariables: Sendable {
    /// The built-in names; each value is one alternative, so the character classes match one character.
    static let builtIns: [String: [String]] = {
        let upper = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) }
        let lower = (UInt8(ascii: "a")...UInt8(ascii: "z")).map { String(UnicodeScalar($0)) }
        let digit = (UInt8(ascii: "0")...UInt8(ascii: "9")).map { String(UnicodeScalar($0)) }
        let hexLetters = ["A", "B", "C", "D", "E", "F", "a", "b", "c", "d", "e", "f"]
        return [
            "alpha": upper + lower,
            "upper": upper,
            "lower": lower,
            "alnum": upper + lower + digit,
            "digit": digit,
            "xdigit": digit + hexLetters,
            "region": ISOCodeSnapshot.regions,
            "lang": ISOCodeSnapshot.languages,
        ]
    }()

    private let defined: [String: [String]]

    init(_ variables: [SubstitutionVariable]) {
        var defined: [String: [String]] = [:]
        // A repeated name (duplicate JSON key) keeps its last definition, as common JSON parsers do.
        for variable in variables { defined[variable.name] = variable.values }
        self.defined = defined
    }

    /// The values of `name`, nil when it is neither defined nor built in. A file's own definition
    /// wins over a built-in of the same name: the effect of shadowing is undocumented (aasa-spec.md §10),
    /// and the author's own list is what they can see and mean.
    func values(named name: String) -> [String]? {
        defined[name] ?? Self.builtIns[name]
    }

    static func isBuiltIn(_ name: String) -> Bool { builtIns[name] != nil }
}
