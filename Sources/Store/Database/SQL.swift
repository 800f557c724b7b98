/// The text of a statement. It can only be written as a string literal (there is deliberately no
/// string interpolation and no initializer from a runtime `String`), so a value can never be spliced
/// into SQL: values go in as `$1, $2, …` parameters. Literal fragments may be joined with `+` to
/// pick, say, an ORDER BY among fixed choices.
public struct SQL: ExpressibleByStringLiteral, Sendable, Hashable, CustomStringConvertible {
    public let text: String

    public init(stringLiteral value: StaticString) {
        text = value.description
    }

    /// For the migration runner, which reads statements from the trusted Migrations/ files.
    init(trustedFileContents: String) {
        text = trustedFileContents
    }

    /// For fragments written from the vocabulary's closed sets (enum raw values, all compile-time
    /// constants without quotes), e.g. the domain state's CASE: never for a value from outside.
    init(vocabularyFragment: String) {
        precondition(!vocabularyFragment.contains(";"), "a vocabulary fragment is one expression")
        text = vocabularyFragment
    }

    private init(joined: String) {
        text = joined
    }

    public static func + (lhs: SQL, rhs: SQL) -> SQL {
        SQL(joined: lhs.text + rhs.text)
    }

    public var description: String { text }
}
