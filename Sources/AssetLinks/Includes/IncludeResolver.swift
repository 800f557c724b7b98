import Vocabulary

/// Follows a file's include statements as Google does (assetlinks-spec.md §3.5): each included list is
/// read by the same reader, a failing include is discarded alone, and the whole tree may fetch at most
/// `budget` files — a loop simply runs the budget out. Pure: the caller supplies the fetching, either as
/// a closure (`resolve`) or by driving an `IncludeWalk` itself (the fetcher, whose fetches are async).
public enum IncludeResolver {
    /// Google's limit on fetches per tree (G-SYNTAX: 10 includes).
    public static let budget = 10

    public struct Resolution: Sendable {
        /// Statements of the file and of every include that could be read, each once.
        public var statements: [Statement]
        /// Whether Google's API reports an error for the tree (the file's own, an include's, or the budget).
        public var googleReportsError: Bool
        public var findings: [Finding]
        /// The include URLs fetched, in order.
        public var fetched: [String] = []
    }

    /// `fetch` answers an include URL with the bytes served there (status 200), or nil when it cannot be had.
    public static func resolve(_ reading: AssetLinksReading, fetch: (String) -> [UInt8]?) -> Resolution {
        var walk = IncludeWalk(reading)
        while let url = walk.next() { walk.receive(fetch(url)) }
        return walk.resolution
    }
}

/// The include resolution as steps: `next()` names the URL to fetch, `receive` takes what was served
/// there. Decisions (budget, de-duplication, findings) stay here; the caller only fetches.
public struct IncludeWalk: Sendable {
    public private(set) var resolution: IncludeResolver.Resolution
    private var seen: Set<Key>
    private var queue: [(url: String, from: String, pointer: String)]
    private var current: (url: String, from: String, pointer: String)?
    private var finished = false

    public init(_ reading: AssetLinksReading) {
        resolution = IncludeResolver.Resolution(statements: reading.file?.statements ?? [],
                                                googleReportsError: reading.googleReportsError, findings: [])
        seen = Set(resolution.statements.map(Key.init))
        queue = (reading.file?.includes ?? []).map { ($0.url, "the file", "/\($0.index)/include") }
    }

    /// The next include URL to fetch, or nil when the walk is over (every include read, or the budget spent).
    public mutating func next() -> String? {
        guard !finished, current == nil, !queue.isEmpty else { return nil }
        let include = queue.removeFirst()
        guard resolution.fetched.count < IncludeResolver.budget else {
            finished = true
            resolution.googleReportsError = true
            resolution.findings.append(AndroidFinding.includeLimit.finding(at: SourceLocation(pointer: include.pointer),
                "Following the includes needs more than \(IncludeResolver.budget) fetches (or they form a loop); Google stops there and reports an error.",
                hint: "Flatten the includes and remove any that include each other."))
            return nil
        }
        resolution.fetched.append(include.url)
        current = include
        return include.url
    }

    /// What the URL `next()` returned served: the bytes of a 200 answer, or nil with why it could not be had.
    public mutating func receive(_ bytes: [UInt8]?, failure: String? = nil) {
        guard let include = current else { return }
        current = nil
        let location = SourceLocation(pointer: include.pointer)
        guard let bytes else {
            resolution.googleReportsError = true
            resolution.findings.append(AndroidFinding.includeFetchFailed.finding(at: location,
                "The include \(include.url) (in \(include.from)) could not be fetched\(failure.map { ": \($0)" } ?? ""); its statements are discarded, the rest still apply.",
                hint: "Serve it with status 200, without redirects."))
            return
        }
        let included = AssetLinksReader.read(bytes, source: include.url.lowercased().hasPrefix("http:") ? .http : .https)
        if included.googleReportsError { resolution.googleReportsError = true }
        guard let file = included.file else {
            resolution.findings.append(AndroidFinding.includeFetchFailed.finding(at: location,
                "The include \(include.url) (in \(include.from)) is not a readable statement list; Google discards it alone.",
                hint: "Validate that file: aasa-monitor validate it."))
            return
        }
        for statement in file.statements where seen.insert(Key(statement)).inserted {
            resolution.statements.append(statement)
        }
        if !file.includes.isEmpty {
            resolution.findings.append(AndroidFinding.includeNested.finding(at: location,
                "The include \(include.url) includes further files; AOSP's verifier follows only one level, so their statements reach only some devices.",
                hint: "List the statements in the first-level include instead."))
        }
        queue += file.includes.map { ($0.url, include.url, "/\($0.index)/include") }
    }

    /// Identity of a statement for de-duplication across files (its position does not count).
    private struct Key: Hashable, Sendable {
        var relations: [String]
        var target: StatementTarget

        init(_ statement: Statement) {
            relations = statement.relations
            target = statement.target
        }
    }
}
