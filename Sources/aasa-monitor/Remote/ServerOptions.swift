import ArgumentParser
import Foundation

/// `--server URL` and where its token comes from, shared by the commands that can work through a
/// running server's API instead of the database (`import`, `apply`, `export`, `check-now`,
/// `status`, `app add`/`app import`): a platform team runs them from CI or a laptop with a token,
/// without database access. Without `--server` the command works on the database as before.
///
/// The token is read from a file (`--token-file`) or the environment (`AASA_MONITOR_TOKEN`), never
/// from the command line: a command line is visible to every user of the machine (`ps`) and kept in
/// shell history.
struct ServerOptions: ParsableArguments {
    static let tokenVariable = "AASA_MONITOR_TOKEN"

    @Option(name: .customLong("server"), help: ArgumentHelp(
        "Work through this aasa-monitor server's API instead of the database: https://monitor.example (http:// only to this machine). Needs a token: --token-file, or env AASA_MONITOR_TOKEN.",
        valueName: "URL"))
    var server: String?

    @Option(name: .customLong("token-file"), help: ArgumentHelp(
        "With --server: a file holding the API token (aasa-monitor token create NAME; a read-only token may run status, export and apply --dry-run). Default: env AASA_MONITOR_TOKEN.",
        valueName: "PATH"))
    var tokenFile: String?

    @Option(name: .customLong("server-ca-file"), help: ArgumentHelp(
        "With --server: trust the server's certificate by the CAs in this PEM file (a private CA) instead of the system's.",
        valueName: "PEM"))
    var caFile: String?

    // Not offered: named only to refuse it with where the token goes instead.
    @Option(name: .customLong("token"), help: .hidden)
    var commandLineToken: String?

    func validate() throws {
        if commandLineToken != nil {
            throw ValidationError("--token is not taken: a token on the command line is visible to every user of the machine (ps) and kept in shell history. Put it in a file for --token-file PATH, or in the environment variable \(Self.tokenVariable).")
        }
        guard server != nil else {
            if tokenFile != nil || caFile != nil { throw ValidationError("--token-file and --server-ca-file go with --server URL.") }
            return
        }
        do { _ = try client() } catch { throw ValidationError(error.message) }
    }

    /// Refuses the database's options beside `--server`: the command would work on one of them and
    /// silently not on the other.
    func validate(against database: DatabaseOptions) throws {
        guard server != nil else { return }
        let given = [("--database-url", database.databaseURL), ("--data-dir", database.dataDirectory),
                     ("--migrations-dir", database.migrationsDirectory)].filter { $0.1 != nil }.map(\.0)
        if !given.isEmpty {
            throw ValidationError("--server works through the server's API, \(given.joined(separator: " and ")) on a database directly: give one or the other.")
        }
    }

    /// The client for `--server`, or nil: work on the database. The URL and the token are checked
    /// here, before anything is read or sent.
    func client(environment: [String: String] = ProcessInfo.processInfo.environment) throws(RemoteError) -> APIClient? {
        guard let server else { return nil }
        return try APIClient(server: server, token: try token(environment: environment), caFile: caFile)
    }

    /// `client()` for `run()`: a problem is printed and exits with its status (`validate()` has
    /// already refused a bad URL or token, so this fails only if the token file went away since).
    func connect() throws -> APIClient? {
        try remote { () throws(RemoteError) in try client() }
    }

    private func token(environment: [String: String]) throws(RemoteError) -> String {
        let text: String
        if let tokenFile {
            guard let data = FileManager.default.contents(atPath: tokenFile) else {
                throw .usage("--token-file \(tokenFile) cannot be read")
            }
            text = String(decoding: data, as: UTF8.self)
        } else {
            text = environment[Self.tokenVariable] ?? ""
        }
        // A file written by `token create > FILE` ends in a newline.
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else {
            throw .usage(tokenFile.map { "--token-file \($0) is empty" }
                         ?? "--server needs an API token: give --token-file PATH, or set \(Self.tokenVariable) (aasa-monitor token create NAME makes one)")
        }
        // It goes into a header line: a line break or a control character would end the header early.
        guard token.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
            throw .usage("the API token holds characters a token never has (spaces, line breaks or non-ASCII); check \(tokenFile.map { "--token-file \($0)" } ?? Self.tokenVariable)")
        }
        return token
    }
}

/// Runs a request to the server; a `RemoteError` is printed on standard error and becomes the exit status.
func remote<T>(_ body: () throws(RemoteError) -> T) throws -> T {
    do {
        return try body()
    } catch {
        throw error.exit()
    }
}
