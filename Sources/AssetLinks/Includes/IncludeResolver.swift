import Vocabulary

/// Follows a file's include statements as Google does (assetlinks-spec.md §3.5): each included list is
/// read by the same reader, a failing include is discarded alone, and the whole tree may fetch at most
/// `budget` files — a loop simply runs the budget out. Pure: the caller supplies the fetching.
public enum IncludeResolver {
    /// Google's limit on fetches per tree (G-SYNTAX: 10 includes).
    public static let budget = 10

    public struct Resolution: Sendable {
        /// Statements of the file and of every include that could be read, each once.
        public var statements: [Statement]
        /// Whether Google's API reports an error for the tree (the file's own, an include's, or the budget).
        public var googleReportsError: Bool
        public var findings: [Finding]
    }

    /// `fetch` answers an include URL with the bytes served there (status 200), or nil when it cannot be had.
    public static func resolve(_ reading: AssetLinksReading, fetch: (String) -> [UInt8]?) -> Resolution {
        var resolution = Resolution(statements: reading.file?.statements ?? [], googleReportsError: reading.googleReportsError,
                                    findings: [])
        var seen = Set(resolution.statements.map(Key.init))
        var queue: [(url: String, from: String, pointer: String, depth: Int)] =
            (reading.file?.includes ?? []).map { ($0.url, "the file", "/\($0.index)/include", 1) }
        var fetched = 0
        while !queue.isEmpty {
            let include = queue.removeFirst()
            let location = SourceLocation(pointer: include.pointer)
            guard fetched < budget else {
                resolution.googleReportsError = true
                resolution.findings.append(AndroidFinding.includeLimit.finding(at: location,
                    "Following the includes needs more than \(budget) fetches (or they form a loop); Google stops there and reports an error.",
                    hint: "Flatten the includes and remove any that include each other."))
                break
            }
            fetched += 1
            guard let bytes = fetch(include.url) else {
                resolution.googleReportsError = true
                resolution.findings.append(AndroidFinding.includeFetchFailed.finding(at: location,
                    "The include \(include.url) (in \(include.from)) could not be fetched; its statements are discarded, the rest still apply.",
                    hint: "Serve it with status 200, without redirects."))
                continue
            }
            let included = AssetLinksReader.read(bytes, source: include.url.lowercased().hasPrefix("http:") ? .http : .https)
            if included.googleReportsError { resolution.googleReportsError = true }
            guard let file = included.file else {
                resolution.findings.append(AndroidFinding.includeFetchFailed.finding(at: location,
                    "The include \(include.url) (in \(include.from)) is not a readable statement list; Google discards it alone.",
                    hint: "Validate that file: aasa-monitor validate it."))
                continue
            }
            for statement in file.statements where seen.insert(Key(statement)).inserted {
                resolution.statements.append(statement)
            }
            if !file.includes.isEmpty {
                resolution.findings.append(AndroidFinding.includeNested.finding(at: location,
                    "The include \(include.url) includes further files; AOSP's verifier follows only one level, so their statements reach only some devices.",
                    hint: "List the statements in the first-level include instead."))
            }
            queue += file.includes.map { ($0.url, include.url, "/\($0.index)/include", include.depth + 1) }
        }
        return resolution
    }

    /// Identity of a statement for de-duplication across files (its position does not count).
    private struct Key: Hashable {
        var relations: [String]
        var target: StatementTarget

        init(_ statement: Statement) {
            relations = statement.relations
            target = statement.target
        }
    }
}
